/**
 * The engine chain: engines are asked in order until one answers; a blocked
 * engine is put on cool-down in KV so later calls (other processes too) skip
 * it, and requests to one engine are spaced by a polite delay.
 * @module
 */
import type { Config } from "../../config.ts";
import { type ErrorCode, QuarryError, toQuarryError } from "../../errors.ts";
import { matchesQuery, type ParsedQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import { bing } from "./bing.ts";
import { brave } from "./brave.ts";
import { awaitTurn, readCooldown, retryLocked, writeCooldown } from "./cooldown.ts";
import { duckduckgo } from "./duckduckgo.ts";
import { duckduckgoLite } from "./duckduckgo_lite.ts";
import { exa } from "./exa.ts";
import { google } from "./google.ts";
import { mojeek } from "./mojeek.ts";
import { searxng } from "./searxng.ts";
import {
  type Attempt,
  type Engine,
  ENGINE_NAMES,
  type EngineName,
  type EngineOptions,
} from "./types.ts";
import { chainFailure } from "./failure.ts";

export type { Attempt, Engine, EngineDeps, EngineName, EngineOptions, TimeRange } from "./types.ts";
export { ENGINE_NAMES, TIME_RANGES } from "./types.ts";
export { EngineChainError } from "./failure.ts";

/** Every engine by name. */
export const ENGINES: Readonly<Record<EngineName, Engine>> = {
  duckduckgo,
  "duckduckgo-lite": duckduckgoLite,
  bing,
  mojeek,
  google,
  searxng,
  brave,
  exa,
};

/** The keyless engines asked by default, in order. */
export const DEFAULT_KEYLESS_CHAIN: readonly EngineName[] = [
  "duckduckgo",
  "duckduckgo-lite",
  "bing",
  "mojeek",
];

/** What the chain needs from outside. */
export interface ChainDeps {
  config: Config;
  fetch: typeof globalThis.fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  kv: Deno.Kv;
  signal?: AbortSignal;
  /** One line per engine tried. */
  progress?: (line: string) => void;
}

/** Options of one chain run. */
export interface ChainOptions extends EngineOptions {
  /** Engine order; defaults to config.engines, then {@linkcode defaultChain}. */
  engines?: string[];
}

/** What the chain answered. */
export interface ChainResult {
  /** At most `count` candidates, satisfying the operators, ranked from 1. */
  candidates: Candidate[];
  /** The engine that answered. */
  engine: string;
  attempts: Attempt[];
  /** Candidates that satisfied the operators before cutting to `count`. */
  totalAvailable: number;
}

/**
 * The default order: SearXNG first when configured, the keyless engines,
 * then the keyed APIs whose keys are present.
 */
export function defaultChain(config: Config): EngineName[] {
  return [
    ...(config.urls.searxng ? ["searxng" as const] : []),
    ...DEFAULT_KEYLESS_CHAIN,
    ...(config.keys.brave ? ["brave" as const] : []),
    ...(config.keys.exa ? ["exa" as const] : []),
  ];
}

/** Reads an engine list (`--engine a,b` or QUARRY_ENGINES); unknown names are BAD_INPUT. */
export function resolveChain(config: Config, requested?: string[]): EngineName[] {
  const names = (requested ?? config.engines ?? []).flatMap((n) => n.split(","))
    .map((n) => n.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0) return defaultChain(config);
  const unknown = names.filter((n) => !(ENGINE_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new QuarryError("BAD_INPUT", `Unknown engine "${unknown.join('", "')}"`, {
      suggestions: [`Choose from ${ENGINE_NAMES.join(", ")}`],
    });
  }
  return [...new Set(names as EngineName[])];
}

const BLOCK_CODES: ReadonlySet<ErrorCode> = new Set(["CAPTCHA", "RATE_LIMITED"]);

/**
 * Asks the engines in order until one gives candidates that satisfy the
 * query's operators. Throws {@linkcode EngineChainError} (with the attempts)
 * when none does and at least one failed.
 */
export async function searchEngines(
  query: ParsedQuery,
  options: ChainOptions,
  deps: ChainDeps,
): Promise<ChainResult> {
  const names = resolveChain(deps.config, options.engines);
  const attempts: Attempt[] = [];
  let empty: { engine: string } | undefined;
  for (const name of names) {
    const engine = ENGINES[name];
    const availability = engine.available(deps.config);
    if (availability !== true) {
      attempts.push({ engine: name, outcome: "skipped", message: availability });
      continue;
    }
    const cooldown = await readCooldown(deps.kv, name, deps.now());
    if (cooldown) {
      const until = new Date(cooldown.until).toISOString();
      attempts.push({
        engine: name,
        outcome: "cooldown",
        code: cooldown.code,
        message: cooldown.message,
        until,
      });
      deps.progress?.(`${name}: on cool-down until ${until}`);
      continue;
    }
    await awaitTurn(name, deps.config.rateLimitMs, deps);
    const started = deps.now();
    try {
      const found = await engine.search(query, options, {
        config: deps.config,
        fetch: deps.fetch,
        now: deps.now,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      const kept = found.filter((c) => matchesQuery(c, query));
      attempts.push({
        engine: name,
        outcome: "ok",
        results: kept.length,
        elapsed_ms: deps.now() - started,
      });
      if (kept.length === 0) {
        empty ??= { engine: name };
        deps.progress?.(`${name}: no results${found.length > 0 ? " matching the operators" : ""}`);
        continue;
      }
      const candidates = kept.slice(0, options.count).map((c, i) => ({ ...c, rank: i + 1 }));
      return { candidates, engine: name, attempts, totalAvailable: kept.length };
    } catch (error) {
      if (deps.signal?.aborted) throw error;
      const qe = toQuarryError(error);
      const attempt: Attempt = {
        engine: name,
        outcome: BLOCK_CODES.has(qe.code) ? "blocked" : "error",
        code: qe.code,
        message: qe.message,
        elapsed_ms: deps.now() - started,
      };
      if (attempt.outcome === "blocked") {
        const now = deps.now();
        const span = qe.retryAfter ? qe.retryAfter * 1000 : deps.config.cooldownMs;
        const until = now + span;
        const cooldown = { until, code: qe.code, message: qe.message };
        try {
          await retryLocked(
            () => writeCooldown(deps.kv, name, cooldown, now),
            deps.sleep,
            deps.signal,
          );
        } catch {
          // The block is still reported; only later calls lose the chance to skip it.
          deps.progress?.(`${name}: could not record the cool-down`);
        }
        attempt.until = new Date(until).toISOString();
      }
      attempts.push(attempt);
      deps.progress?.(`${name}: ${attempt.outcome} (${qe.code}) ${qe.message}`);
    }
  }
  if (empty) return { candidates: [], engine: empty.engine, attempts, totalAvailable: 0 };
  throw chainFailure(attempts, deps.config, deps.now());
}
