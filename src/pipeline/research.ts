/**
 * The research pipeline (DESIGN §1): query → engines → candidate selection →
 * fetch all at once → extract → quality gate → rank → assemble. Every outside
 * part comes in through {@linkcode ResearchDeps}, so the whole flow runs in
 * tests against fakes of the internet only.
 * @module
 */
import {
  type CandidateConfig,
  DEFAULT_CANDIDATE_CONFIG,
  type Dropped,
  selectCandidates,
} from "./candidates.ts";
import { DEFAULT_QUALITY_CONFIG, judgeQuality, type QualityConfig } from "./quality.ts";
import type { PageRead } from "./read.ts";
import type { Article, Candidate, PageStatus } from "./types.ts";

/** One excerpt of a page. */
export interface Excerpt {
  text: string;
  heading: string[];
  score: number;
}

/** One page of a `search` answer (DESIGN §4). */
export interface ResearchResult {
  url: string;
  title: string;
  engine?: string;
  rank?: number;
  status: PageStatus;
  reason?: string;
  relevance?: number;
  excerpts?: Excerpt[];
  tokens?: number;
  archive_id?: string;
  published?: string | null;
  /** Read from the DOM a browser rendered. */
  rendered?: boolean;
}

/** What the engine chain answered. */
export interface SearchAnswer {
  candidates: Candidate[];
  engine: string;
  attempts: unknown[];
}

/** Budgets of one answer. */
export interface Budget {
  /** Characters of excerpts for each page. */
  perPage: number;
  /** Characters for the whole answer. */
  total: number;
  /** Tokens for the whole answer; replaces the character budgets when set. */
  maxTokens?: number;
}

/** The parts of the pipeline that touch the outside world or other stages. */
export interface ResearchDeps {
  search(query: string): Promise<SearchAnswer>;
  read(urls: string[]): Promise<PageRead[]>;
  /** Excerpts of one page within a character or token budget. */
  excerpts(article: Article, query: string, budget: { chars?: number; tokens?: number }): Excerpt[];
  /** Page relevance in 0..1. */
  relevance(candidate: Candidate, article: Article, best: number): number;
  countTokens(text: string): number;
  /** URLs already returned in this session for this query. */
  seen?(urls: string[]): Promise<Set<string>>;
  markSeen?(urls: string[]): Promise<void>;
  now(): number;
}

/** Options of one research run. */
export interface ResearchOptions {
  /** Pages to return. */
  count: number;
  budget: Budget;
  candidates?: CandidateConfig;
  quality?: QualityConfig;
  /** Extra candidates fetched beyond `count`, to make up for pages that fail. @default {3} */
  spare?: number;
}

/** What a run produced, before it is wrapped in an envelope. */
export interface ResearchOutcome {
  results: ResearchResult[];
  dropped: Dropped[];
  engine: string;
  attempts: unknown[];
  totalAvailable: number;
  tokensUsed: number;
  charsUsed: number;
}

/**
 * Keeps whole excerpts, in order, while they fit what is left of the total
 * budget; a page whose first excerpt does not fit keeps none.
 */
export function fitToTotal(
  results: ResearchResult[],
  budget: Budget,
  countTokens: (text: string) => number,
): { results: ResearchResult[]; tokensUsed: number; charsUsed: number } {
  let chars = 0;
  let tokens = 0;
  const out = results.map((r) => {
    if (!r.excerpts) return r;
    const kept: Excerpt[] = [];
    let pageTokens = 0;
    for (const e of r.excerpts) {
      const t = countTokens(e.text);
      const fits = budget.maxTokens !== undefined
        ? tokens + t <= budget.maxTokens
        : chars + e.text.length <= budget.total;
      if (!fits) break;
      kept.push(e);
      chars += e.text.length;
      tokens += t;
      pageTokens += t;
    }
    return { ...r, excerpts: kept, tokens: pageTokens };
  });
  return { results: out, tokensUsed: tokens, charsUsed: chars };
}

function failedResult(page: PageRead, c: Candidate): ResearchResult {
  return {
    url: c.url,
    title: page.extracted?.article.title || c.title,
    engine: c.engine,
    rank: c.rank,
    status: page.status,
    ...(page.reason === undefined ? {} : { reason: page.reason }),
  };
}

/** Runs the pipeline. Failures of single pages are values; only an engine failure throws. */
export async function research(
  query: string,
  options: ResearchOptions,
  deps: ResearchDeps,
): Promise<ResearchOutcome> {
  const answer = await deps.search(query);
  const selection = selectCandidates(
    answer.candidates,
    query,
    options.candidates ?? DEFAULT_CANDIDATE_CONFIG,
  );
  const dropped = [...selection.dropped];
  let fresh = selection.kept;
  if (deps.seen) {
    const seen = await deps.seen(fresh.map((c) => c.url));
    for (const c of fresh.filter((c) => seen.has(c.url))) {
      dropped.push({
        url: c.url,
        title: c.title,
        engine: c.engine,
        rank: c.rank,
        status: "duplicate",
        reason: "already returned in this session",
      });
    }
    fresh = fresh.filter((c) => !seen.has(c.url));
  }
  const toRead = fresh.slice(0, options.count + (options.spare ?? 3));
  const pages = await deps.read(toRead.map((c) => c.url));
  const perPageTokens = options.budget.maxTokens === undefined ? undefined : Math.max(
    1,
    Math.floor(options.budget.maxTokens / Math.max(1, Math.min(options.count, toRead.length))),
  );
  const ok: ResearchResult[] = [];
  const failed: ResearchResult[] = [];
  pages.forEach((page, i) => {
    const c = toRead[i]!;
    const withId = {
      ...(page.archiveId === undefined ? {} : { archive_id: page.archiveId }),
      ...(page.rendered ? { rendered: true } : {}),
    };
    if (page.status !== "ok" || !page.extracted) {
      failed.push({ ...failedResult(page, c), ...withId });
      return;
    }
    const article = page.extracted.article;
    const verdict = judgeQuality(article, options.quality ?? DEFAULT_QUALITY_CONFIG);
    if (!verdict.ok) {
      failed.push({
        ...failedResult(page, c),
        status: "filtered",
        reason: verdict.reason!,
        ...withId,
      });
      return;
    }
    const excerpts = deps.excerpts(
      article,
      query,
      perPageTokens === undefined ? { chars: options.budget.perPage } : { tokens: perPageTokens },
    );
    const best = excerpts.reduce((m, e) => Math.max(m, e.score), 0);
    ok.push({
      url: c.url,
      title: article.title || c.title,
      engine: c.engine,
      rank: c.rank,
      status: "ok",
      relevance: deps.relevance(c, article, best),
      excerpts,
      published: article.published ?? c.published ?? null,
      ...withId,
    });
  });
  // Deterministic: relevance, then engine rank, then URL.
  ok.sort((a, b) =>
    (b.relevance ?? 0) - (a.relevance ?? 0) || (a.rank ?? 0) - (b.rank ?? 0) ||
    a.url.localeCompare(b.url)
  );
  failed.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0) || a.url.localeCompare(b.url));
  const chosen = ok.slice(0, options.count);
  for (const extra of ok.slice(options.count)) {
    dropped.push({
      url: extra.url,
      title: extra.title,
      status: "filtered",
      reason: "beyond --count",
    });
  }
  const fitted = fitToTotal(chosen, options.budget, deps.countTokens);
  const returned = fitted.results.filter((r) => (r.excerpts?.length ?? 0) > 0);
  for (const r of fitted.results.filter((r) => (r.excerpts?.length ?? 0) === 0)) {
    dropped.push({
      url: r.url,
      title: r.title,
      status: "filtered",
      reason: "no excerpt fit the budget",
    });
  }
  if (deps.markSeen) await deps.markSeen(returned.map((r) => r.url));
  return {
    results: [...returned, ...failed],
    dropped,
    engine: answer.engine,
    attempts: answer.attempts,
    // Distinct candidates the engine offered, whatever became of them.
    totalAvailable: answer.candidates.length -
      selection.dropped.filter((d) => d.status === "duplicate").length,
    tokensUsed: fitted.tokensUsed,
    charsUsed: fitted.charsUsed,
  };
}
