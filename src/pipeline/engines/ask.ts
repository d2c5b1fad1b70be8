/**
 * Asking one engine, as the chain does it: wait for the engine's polite
 * slot, ask for as many pages as the count needs, keep what satisfies the
 * query's operators, and write the outcome into the engine's health. Never
 * throws for an engine failure: the outcome says what happened.
 * @module
 */
import type { Config } from "../../config.ts";
import { type ErrorCode, type QuarryError, toQuarryError } from "../../errors.ts";
import { matchesQuery, type ParsedQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import {
  afterBlock,
  afterFailure,
  afterSuccess,
  type EngineHealth,
  type HealthRecord,
  type PacingConfig,
  spacing,
} from "./health.ts";
import { EngineUnreachable } from "./http.ts";
import type { Attempt, Engine, EngineOptions } from "./types.ts";

/** What asking one engine needs. */
export interface AskDeps {
  config: Config;
  fetch: typeof globalThis.fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  health: EngineHealth;
  random: () => number;
  pacing: PacingConfig;
  progress?: ((line: string) => void) | undefined;
}

/** What one engine gave. */
export interface Outcome {
  attempt: Attempt;
  /** Results that satisfy the operators, ranked from 1 (empty on failure). */
  kept: Candidate[];
}

/** Most result pages asked of one engine for one search. */
export const MAX_PAGES = 5;

const BLOCK_CODES: ReadonlySet<ErrorCode> = new Set(["CAPTCHA", "RATE_LIMITED"]);

async function pagesOf(
  engine: Engine,
  query: ParsedQuery,
  options: EngineOptions,
  deps: AskDeps,
  signal: AbortSignal,
): Promise<{ kept: Candidate[]; pages: number }> {
  const engineDeps = { config: deps.config, fetch: deps.fetch, now: deps.now, signal };
  const seen = new Set<string>();
  const kept: Candidate[] = [];
  let pages = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    let found: Candidate[];
    try {
      found = await engine.search(query, { ...options, page }, engineDeps);
    } catch (error) {
      // A later page that fails leaves the earlier pages standing.
      if (page === 1 || signal.aborted) throw error;
      break;
    }
    pages = page;
    const fresh = found.filter((c) => !seen.has(c.url));
    for (const c of fresh) seen.add(c.url);
    kept.push(...fresh.filter((c) => matchesQuery(c, query)));
    const short = engine.pageSize === undefined || found.length < engine.pageSize ||
      fresh.length === 0;
    if (kept.length >= options.count || short) break;
  }
  return { kept: kept.map((c, i) => ({ ...c, rank: i + 1 })), pages };
}

async function record(
  deps: AskDeps,
  name: string,
  change: (old: HealthRecord | undefined) => HealthRecord,
): Promise<HealthRecord | undefined> {
  try {
    return await deps.health.update(name, change);
  } catch {
    // Health is advice: a store that cannot be written never fails a search.
    deps.progress?.(`${name}: could not record its health`);
    return undefined;
  }
}

/**
 * Asks one engine and records how it went. Aborting `signal` (the chain
 * took another answer) ends it with outcome `cancelled` and no health change.
 */
export async function askEngine(
  engine: Engine,
  query: ParsedQuery,
  options: EngineOptions,
  deps: AskDeps,
  signal: AbortSignal,
): Promise<Outcome> {
  const name = engine.name;
  try {
    const gap = spacing(deps.config.rateLimitMs, deps.random);
    const slot = await deps.health.reserve(name, gap, deps.now());
    const wait = slot - deps.now();
    if (wait > 0) await deps.sleep(wait, signal);
  } catch (error) {
    if (signal.aborted) return { attempt: { engine: name, outcome: "cancelled" }, kept: [] };
    // The delay is a courtesy: a store that cannot coordinate does not stop the search.
    deps.progress?.(`${name}: could not reserve a request slot (${toQuarryError(error).message})`);
  }
  const started = deps.now();
  try {
    const { kept, pages } = await pagesOf(engine, query, options, deps, signal);
    const elapsed = deps.now() - started;
    await record(deps, name, (old) => afterSuccess(old, elapsed));
    const attempt: Attempt = {
      engine: name,
      outcome: "ok",
      results: kept.length,
      elapsed_ms: elapsed,
    };
    if (pages > 1) attempt.pages = pages;
    return { attempt, kept };
  } catch (error) {
    if (signal.aborted) return { attempt: { engine: name, outcome: "cancelled" }, kept: [] };
    const qe = toQuarryError(error);
    const attempt: Attempt = {
      engine: name,
      outcome: BLOCK_CODES.has(qe.code) ? "blocked" : "error",
      code: qe.code,
      message: qe.message,
      elapsed_ms: deps.now() - started,
    };
    if (error instanceof EngineUnreachable) attempt.unreachable = error.host;
    else if (qe.code === "UPSTREAM_ERROR" && isConfigHint(qe)) attempt.hint = qe.suggestions[0]!;
    if (attempt.outcome === "blocked") {
      const block = { code: qe.code, message: qe.message, retryAfter: qe.retryAfter };
      const now = deps.now();
      const after = await record(deps, name, (old) => afterBlock(old, block, now, deps.pacing));
      if (after?.until !== undefined) attempt.until = new Date(after.until).toISOString();
    } else {
      await record(deps, name, afterFailure);
    }
    deps.progress?.(`${name}: ${attempt.outcome} (${qe.code}) ${qe.message}`);
    return { attempt, kept: [] };
  }
}

/** Settings-file fixes (SearXNG's JSON format) are worth lifting into the chain's error. */
const CONFIG_HINT = /settings\.yml/;

function isConfigHint(error: QuarryError): boolean {
  return CONFIG_HINT.test(error.suggestions[0] ?? "");
}
