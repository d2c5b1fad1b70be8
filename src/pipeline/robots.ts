/**
 * robots.txt (RFC 9309), opt-in: before Quarry reads a page on its own it
 * asks the page's origin whether the product token `Quarry` may. What the
 * origin answered is kept per origin behind {@linkcode RobotsCache}; a page
 * that is disallowed is never requested.
 *
 * RFC 9309 §2.3.1: a 4xx robots.txt means everything is allowed; a 5xx or
 * an unreachable one means everything is disallowed; up to five redirects
 * are followed; at least the first 500 KiB are read.
 * @module
 */
import robotsParserModule from "robots-parser";
import { fetchAll, type FetchDeps, type FetchOptions } from "./fetch.ts";
import type { FetchResult } from "./types.ts";

/** The part of robots-parser's parsed file used here. */
interface ParsedRobots {
  /** undefined when the URL is not under this robots.txt. */
  isAllowed(url: string, ua?: string): boolean | undefined;
}

// robots-parser declares its types as an ambient module, which Deno does not
// attach to the CommonJS default export; the function is what it exports.
const robotsParser = robotsParserModule as unknown as (
  url: string,
  contents: string,
) => ParsedRobots;

/** The product token Quarry's rules are looked up under. */
export const ROBOTS_TOKEN = "Quarry";

/** What an origin's robots.txt says for Quarry, as kept in the cache. */
export type RobotsRecord =
  | { kind: "allow_all"; why: string; fetchedAt: number }
  | { kind: "disallow_all"; why: string; fetchedAt: number }
  | { kind: "rules"; rules: string; fetchedAt: number };

/** Where robots.txt answers are kept between runs (KV in the program). */
export interface RobotsCache {
  get(origin: string): Promise<RobotsRecord | undefined>;
  set(origin: string, record: RobotsRecord, ttlMs: number): Promise<void>;
}

/** Limits of robots.txt handling. */
export interface RobotsConfig {
  /** Bytes of robots.txt read; the rest is ignored (RFC 9309 §2.5). @default {512000} */
  maxBytes: number;
  /** @default {5} */
  maxRedirects: number;
  /** How long an answer is kept (RFC 9309 §2.4: not more than a day). @default {86400000} */
  ttlMs: number;
  /** How long "unreachable, so disallowed" is kept before asking again. @default {900000} */
  errorTtlMs: number;
  /** Time allowed to fetch one robots.txt. @default {5000} */
  timeoutMs: number;
  /** Characters of rules kept in the cache (only the groups that apply to Quarry). @default {60000} */
  maxRulesChars: number;
}

/** Defaults of {@linkcode RobotsConfig}. */
export const DEFAULT_ROBOTS_CONFIG: RobotsConfig = {
  maxBytes: 500 * 1024,
  maxRedirects: 5,
  ttlMs: 86_400_000,
  errorTtlMs: 900_000,
  timeoutMs: 5000,
  maxRulesChars: 60_000,
};

/** What checking needs from outside: the fetch deps, the cache and how pages are fetched. */
export interface RobotsDeps extends FetchDeps {
  cache: RobotsCache;
  /** The fetch settings of the pages (user agent, SSRF guard). */
  fetchOptions: Pick<FetchOptions, "userAgent" | "allowPrivateNetwork"> & {
    signal?: AbortSignal | undefined;
  };
}

const LINE_BREAK = /\r\n|\r|\n/;
const FIELD = /^\s*([A-Za-z-]+)\s*:\s*(.*?)\s*$/;
const RULE_FIELDS = new Set(["allow", "disallow"]);

/**
 * The groups of a robots.txt that can apply to `token`: its own and `*`
 * (a crawler follows its own group when there is one, else `*`). Comments,
 * sitemaps and other crawlers' groups are dropped, so the cached text stays small.
 */
export function groupsFor(text: string, token = ROBOTS_TOKEN, maxChars = Infinity): string {
  const wanted = new Set([token.toLowerCase(), "*"]);
  const out: string[] = [];
  let agents: string[] = [];
  let keep = false;
  let inAgents = false;
  for (const raw of text.split(LINE_BREAK)) {
    const match = FIELD.exec(raw.replace(/#.*$/, ""));
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    const value = match[2]!;
    if (key === "user-agent") {
      if (!inAgents) [agents, keep, inAgents] = [[], false, true];
      agents.push(`User-agent: ${value}`);
      if (wanted.has(value.toLowerCase().split("/")[0]!.trim())) keep = true;
      continue;
    }
    if (inAgents && keep) out.push("", ...agents);
    inAgents = false;
    if (keep && RULE_FIELDS.has(key)) {
      out.push(`${key === "allow" ? "Allow" : "Disallow"}: ${value}`);
    }
  }
  if (inAgents && keep) out.push("", ...agents);
  let rules = out.join("\n").trim();
  if (rules.length > maxChars) rules = rules.slice(0, rules.lastIndexOf("\n", maxChars));
  return rules;
}

/** What a robots.txt fetch means for the origin (RFC 9309 §2.3.1). */
export function recordOf(result: FetchResult, now: number, maxChars = Infinity): RobotsRecord {
  const http = result.httpStatus;
  if (result.status === "ok") {
    return {
      kind: "rules",
      rules: groupsFor(result.body ?? "", ROBOTS_TOKEN, maxChars),
      fetchedAt: now,
    };
  }
  if (http !== undefined && http >= 400 && http < 500) {
    return { kind: "allow_all", why: `robots.txt answered HTTP ${http}`, fetchedAt: now };
  }
  if (result.status === "empty" || result.status === "not_html") {
    // Reachable, but no rules in it: nothing is disallowed.
    return { kind: "allow_all", why: `robots.txt has no rules (${result.status})`, fetchedAt: now };
  }
  const why = http !== undefined && http >= 500
    ? `robots.txt answered HTTP ${http}`
    : `robots.txt unreachable: ${result.reason ?? result.status}`;
  return { kind: "disallow_all", why, fetchedAt: now };
}

/** Whether Quarry may read a URL; a reason when not. */
export type Verdict = { allowed: true } | { allowed: false; reason: string };

/**
 * The check of one origin's record, its rules parsed once for every URL of
 * that origin.
 */
export function judge(record: RobotsRecord, origin: string): (url: string) => Verdict {
  if (record.kind === "allow_all") return () => ({ allowed: true });
  if (record.kind === "disallow_all") {
    const reason = `${record.why}, so every page of the site is off limits`;
    return () => ({ allowed: false, reason });
  }
  const robots = robotsParser(`${origin}/robots.txt`, record.rules);
  const reason = `robots.txt of ${origin} disallows ${ROBOTS_TOKEN} here`;
  // undefined: the URL is not under this robots.txt, which cannot happen for its own origin.
  return (url) =>
    robots.isAllowed(url, ROBOTS_TOKEN) !== false ? { allowed: true } : {
      allowed: false,
      reason,
    };
}

/** Whether Quarry may read `url` under its origin's record; a reason when not. */
export function verdict(record: RobotsRecord, url: string): Verdict {
  return judge(record, new URL(url).origin)(url);
}

/** The record of one origin: from the cache, else fetched (through the SSRF guard) and kept. */
export async function robotsFor(
  origin: string,
  deps: RobotsDeps,
  config: RobotsConfig = DEFAULT_ROBOTS_CONFIG,
): Promise<RobotsRecord> {
  const cached = await deps.cache.get(origin).catch(() => undefined);
  if (cached) return cached;
  const [result] = await fetchAll([`${origin}/robots.txt`], {
    ...deps.fetchOptions,
    timeoutMs: config.timeoutMs,
    maxBytes: config.maxBytes,
    maxRedirects: config.maxRedirects,
    overflow: "truncate",
  }, deps);
  const record = recordOf(result!, deps.now(), config.maxRulesChars);
  const ttl = record.kind === "disallow_all" ? config.errorTtlMs : config.ttlMs;
  await deps.cache.set(origin, record, ttl).catch(() => {});
  return record;
}

/**
 * Splits URLs into those Quarry may read and those robots.txt keeps it from,
 * each origin's robots.txt asked once, origins at once.
 */
export async function checkRobots(
  urls: string[],
  deps: RobotsDeps,
  config: RobotsConfig = DEFAULT_ROBOTS_CONFIG,
): Promise<Map<string, string>> {
  const origins = [...new Set(urls.map((u) => new URL(u).origin))];
  const judges = new Map(
    await Promise.all(
      origins.map(async (o) => [o, judge(await robotsFor(o, deps, config), o)] as const),
    ),
  );
  const refused = new Map<string, string>();
  for (const url of urls) {
    const answer = judges.get(new URL(url).origin)!(url);
    if (!answer.allowed) refused.set(url, answer.reason);
  }
  return refused;
}
