/**
 * Candidate selection before any page is fetched: canonical URLs and
 * duplicates, blocked domains, a relevance pre-filter and session dedup.
 * Pure functions: candidates in, kept and dropped out.
 * @module
 */
import { canonicalUrl } from "../text/url.ts";
import { urlWords } from "./rank/relevance.ts";
import { tokenize } from "../text/tokenize.ts";
import type { Candidate, PageStatus } from "./types.ts";

/** Sites whose pages need JavaScript to show their content, so fetching them yields nothing. */
export const DEFAULT_BLOCKED_DOMAINS: readonly string[] = [
  "x.com",
  "twitter.com",
  "facebook.com",
  "instagram.com",
  "tiktok.com",
  "linkedin.com",
  "pinterest.com",
  "threads.net",
  "youtube.com",
];

/** How candidates are chosen. */
export interface CandidateConfig {
  /** Domains (and their subdomains) never fetched. */
  blockedDomains: readonly string[];
  /** Share of the query's tokens that title + snippet + URL must contain. @default {0.4} */
  minCoverage: number;
}

/** Defaults for {@linkcode CandidateConfig}. */
export const DEFAULT_CANDIDATE_CONFIG: Readonly<CandidateConfig> = {
  blockedDomains: DEFAULT_BLOCKED_DOMAINS,
  minCoverage: 0.4,
};

/** A candidate that will not be fetched, and why. */
export interface Dropped {
  url: string;
  title?: string;
  engine?: string;
  rank?: number;
  status: PageStatus;
  reason: string;
}

/** Candidates split into those to fetch and those dropped. */
export interface Selection {
  kept: Candidate[];
  dropped: Dropped[];
}

/** A path segment that names a version of a document: `/v1/`, `/v2.3/`, `/1.x/`. */
const VERSION_SEGMENT = /\/v?\d+(?:\.(?:\d+|x))*(?=\/)/gi;

/** The key under which versions of one document merge: canonical URL minus version segments. */
export function versionlessKey(url: string): string {
  return withoutVersions(canonicalUrl(url));
}

function withoutVersions(canonical: string): string {
  return canonical.replace(VERSION_SEGMENT, "/*");
}

function drop(c: Candidate, status: PageStatus, reason: string): Dropped {
  return { url: c.url, title: c.title, engine: c.engine, rank: c.rank, status, reason };
}

/**
 * Canonicalizes URLs and merges duplicates: the same canonical URL, or the
 * same document under another version path (`/v1/` vs `/v2/`). The first
 * (best-ranked) candidate wins.
 */
export function dedupeCandidates(candidates: Candidate[]): Selection {
  const seen = new Map<string, Candidate>();
  const kept: Candidate[] = [];
  const dropped: Dropped[] = [];
  for (const c of candidates) {
    const url = canonicalUrl(c.url);
    const key = withoutVersions(url);
    const first = seen.get(key);
    if (first) {
      dropped.push(drop(c, "duplicate", `same document as ${first.url}`));
      continue;
    }
    const kept1 = { ...c, url };
    seen.set(key, kept1);
    kept.push(kept1);
  }
  return { kept, dropped };
}

/** True when `host` is `domain` or one of its subdomains. */
export function hostMatches(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/^www\./, "");
  const d = domain.toLowerCase().replace(/^www\./, "");
  return h === d || h.endsWith(`.${d}`);
}

/** Drops candidates on blocked domains. */
export function dropBlocked(candidates: Candidate[], blocked: readonly string[]): Selection {
  const kept: Candidate[] = [];
  const dropped: Dropped[] = [];
  for (const c of candidates) {
    const host = new URL(c.url).hostname;
    const hit = blocked.find((d) => hostMatches(host, d));
    if (hit) dropped.push(drop(c, "filtered", `${hit} needs JavaScript to show its content`));
    else kept.push(c);
  }
  return { kept, dropped };
}

/** Share of the query's distinct tokens found in the candidate's title, snippet and URL. */
export function candidateCoverage(queryTokens: string[], c: Candidate): number {
  const unique = [...new Set(queryTokens)];
  if (unique.length === 0) return 1;
  const have = new Set(tokenize(`${c.title} ${c.snippet} ${urlWords(c.url)}`));
  return unique.filter((t) => have.has(t)).length / unique.length;
}

/** Drops candidates whose title, snippet and URL cover too little of the query. */
export function prefilter(candidates: Candidate[], query: string, minCoverage: number): Selection {
  const tokens = tokenize(query);
  const kept: Candidate[] = [];
  const dropped: Dropped[] = [];
  for (const c of candidates) {
    const coverage = candidateCoverage(tokens, c);
    if (coverage >= minCoverage) kept.push(c);
    else {
      dropped.push(
        drop(c, "filtered", `title and snippet cover ${Math.round(coverage * 100)}% of the query`),
      );
    }
  }
  return { kept, dropped };
}

/** Runs the pure selection stages in order and gathers everything dropped. */
export function selectCandidates(
  candidates: Candidate[],
  query: string,
  config: CandidateConfig = DEFAULT_CANDIDATE_CONFIG,
): Selection {
  const a = dedupeCandidates(candidates);
  const b = dropBlocked(a.kept, config.blockedDomains);
  const c = prefilter(b.kept, query, config.minCoverage);
  return { kept: c.kept, dropped: [...a.dropped, ...b.dropped, ...c.dropped] };
}
