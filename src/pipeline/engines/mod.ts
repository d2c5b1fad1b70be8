/**
 * The engine chain. Engines are ordered healthiest first (engines cooling
 * down after a block are left out) and raced with hedging: the next engine
 * is asked as well when the first fails or stays silent past the hedge
 * delay, and the first answer wins. With fusion, K engines are asked at once
 * and their lists merged by reciprocal rank fusion. Health (answers, latency,
 * blocks, cool-downs, request slots) lives behind {@linkcode EngineHealth}.
 * @module
 */
import type { Config } from "../../config.ts";
import { QuarryError } from "../../errors.ts";
import type { ParsedQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import { type AskDeps, askEngine } from "./ask.ts";
import { bing } from "./bing.ts";
import { brave } from "./brave.ts";
import { braveHtml } from "./brave_html.ts";
import { duckduckgo } from "./duckduckgo.ts";
import { duckduckgoLite } from "./duckduckgo_lite.ts";
import { exa } from "./exa.ts";
import { google } from "./google.ts";
import { mojeek } from "./mojeek.ts";
import { searxng } from "./searxng.ts";
import { startpage } from "./startpage.ts";
import { wikipedia } from "./wikipedia.ts";
import { canonicalUrl } from "../../text/url.ts";
import { fuseRanks } from "./fusion.ts";
import { byHealth, coolingUntil, type EngineHealth, type HealthRecord } from "./health.ts";
import { race, wallTimer } from "./hedge.ts";
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
export type { EngineHealth, HealthRecord } from "./health.ts";

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
  startpage,
  "brave-html": braveHtml,
  wikipedia,
};

/** Engines `fusion: true` asks at once when QUARRY_FUSION does not say. */
export const DEFAULT_FUSION = 3;

/**
 * Engines to ask at once: `fusion: true` asks QUARRY_FUSION engines (at
 * least two; {@linkcode DEFAULT_FUSION} when unset), `false` turns fusion
 * off, and no choice follows QUARRY_FUSION.
 */
export function fusionCount(config: Config, fusion: boolean | undefined): number {
  if (fusion === false) return 0;
  if (fusion === true) return config.fusion > 1 ? config.fusion : DEFAULT_FUSION;
  return config.fusion;
}

/** The keyless engines asked by default, in order. */
export const DEFAULT_KEYLESS_CHAIN: readonly EngineName[] = [
  "duckduckgo",
  "duckduckgo-lite",
  "bing",
  "mojeek",
  "startpage",
  "brave-html",
  "wikipedia",
];

/** What the chain needs from outside. */
export interface ChainDeps {
  config: Config;
  fetch: typeof globalThis.fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  health: EngineHealth;
  /**
   * The hedge timer; defaults to the wall clock ({@linkcode wallTimer}), since
   * it waits on the network. Tests pass one they control.
   */
  timer?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Random numbers in [0, 1) for the jitter of the polite delay. @default {Math.random} */
  random?: () => number;
  signal?: AbortSignal | undefined;
  /** One line per engine tried. */
  progress?: ((line: string) => void) | undefined;
}

/** Options of one chain run. */
export interface ChainOptions extends EngineOptions {
  /** Engine order; defaults to config.engines, then {@linkcode defaultChain}. */
  engines?: string[];
  /** Engines asked at once and fused; 0 or 1 is the hedged chain. @default {config.fusion} */
  fusion?: number;
}

/** What the chain answered. */
export interface ChainResult {
  /** At most `count` candidates, satisfying the operators, ranked from 1. */
  candidates: Candidate[];
  /** The engine that answered (with fusion, the engines, comma-separated). */
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

/**
 * Orders the chain healthiest first (an explicit `--engine` list keeps its
 * order; Wikipedia, which only knows its own articles, stays behind the
 * general engines) and notes the engines that are skipped: not configured,
 * or cooling down after a block.
 */
async function plan(
  names: EngineName[],
  explicit: boolean,
  deps: ChainDeps,
): Promise<{ ready: EngineName[]; attempts: Attempt[] }> {
  const attempts: Attempt[] = [];
  const records = new Map<string, HealthRecord | undefined>();
  const ready: EngineName[] = [];
  for (const name of names) {
    const availability = ENGINES[name].available(deps.config);
    if (availability !== true) {
      attempts.push({ engine: name, outcome: "skipped", message: availability });
      continue;
    }
    const record = await deps.health.get(name).catch(() => undefined);
    const until = coolingUntil(record, deps.now());
    if (until !== undefined) {
      const iso = new Date(until).toISOString();
      attempts.push({
        engine: name,
        outcome: "cooldown",
        ...(record?.code ? { code: record.code } : {}),
        ...(record?.message ? { message: record.message } : {}),
        until: iso,
      });
      deps.progress?.(`${name}: on cool-down until ${iso}`);
      continue;
    }
    records.set(name, record);
    ready.push(name);
  }
  if (explicit) return { ready, attempts };
  // Engines that only know their own site come after the general ones, however healthy.
  const general = ready.filter((n) => !ENGINES[n].ownSiteOnly);
  const ownSite = ready.filter((n) => ENGINES[n].ownSiteOnly);
  return { ready: [...byHealth(general, records), ...byHealth(ownSite, records)], attempts };
}

/**
 * Asks the engines, hedged (or fused), until one gives candidates that
 * satisfy the query's operators. Throws {@linkcode EngineChainError} (with
 * the attempts) when none does and at least one failed.
 */
export async function searchEngines(
  query: ParsedQuery,
  options: ChainOptions,
  deps: ChainDeps,
): Promise<ChainResult> {
  const requested = options.engines ?? deps.config.engines;
  const names = resolveChain(deps.config, options.engines);
  const { ready, attempts } = await plan(names, (requested?.length ?? 0) > 0, deps);
  const askDeps: AskDeps = {
    ...deps,
    random: deps.random ?? Math.random,
    pacing: { cooldownMs: deps.config.cooldownMs, maxCooldownMs: deps.config.cooldownMaxMs },
  };
  const { fusion: _f, engines: _e, ...engineOptions } = options;
  const want = Math.max(1, options.fusion ?? deps.config.fusion);
  if (want > 1 && ready.some((n) => !ENGINES[n].ownSiteOnly)) {
    // Fusion merges views of the web: an engine of one site's articles only dilutes them.
    for (const name of ready.filter((n) => ENGINES[n].ownSiteOnly)) {
      attempts.push({ engine: name, outcome: "skipped", message: "not fused: one site only" });
    }
    ready.splice(0, ready.length, ...ready.filter((n) => !ENGINES[n].ownSiteOnly));
  }
  const raceFrom = (start: number, n: number) =>
    race(
      ready.length - start,
      n,
      (i, signal) => askEngine(ENGINES[ready[start + i]!], query, engineOptions, askDeps, signal),
      {
        timer: deps.timer ?? wallTimer,
        hedgeDelayMs: deps.config.hedgeDelayMs,
        signal: deps.signal,
      },
    );
  const { winners, outcomes } = await raceFrom(0, want);
  attempts.push(...outcomes.map((o) => o.attempt));
  if (winners.length > 0) {
    // Chain order, not arrival order, so fused ties and the engine list are stable.
    const at = (o: { attempt: Attempt }) => ready.indexOf(o.attempt.engine as EngineName);
    winners.sort((a, b) => at(a) - at(b));
    const lists = winners.map((w) => w.kept);
    let merged = want > 1 ? fuseRanks(lists) : withOwnRank(lists[0]!);
    const used = winners.map((w) => w.attempt.engine);
    // More than a page wanted and the answering engine ran out: the next engines top it up.
    let started = outcomes.length;
    while (want === 1 && merged.length < options.count && options.count > TOP_UP_OVER) {
      if (started >= ready.length) break;
      const more = await raceFrom(started, 1);
      started += more.outcomes.length;
      attempts.push(...more.outcomes.map((o) => o.attempt));
      if (more.winners.length === 0) break;
      merged = appendNew(merged, more.winners[0]!.kept);
      used.push(more.winners[0]!.attempt.engine);
    }
    return {
      candidates: merged.slice(0, options.count),
      engine: used.join(","),
      attempts,
      totalAvailable: merged.length,
    };
  }
  const empty = outcomes.find((o) => o.attempt.outcome === "ok");
  if (empty) return { candidates: [], engine: empty.attempt.engine, attempts, totalAvailable: 0 };
  throw chainFailure(attempts, deps.config, deps.now());
}

/** Counts above one result page may be topped up from the next engines. */
const TOP_UP_OVER = 10;

/** `list` followed by the results of `more` it does not have yet, ranked from 1. */
function appendNew(list: Candidate[], more: Candidate[]): Candidate[] {
  const seen = new Set(list.map((c) => canonicalUrl(c.url)));
  const fresh = withOwnRank(more).filter((c) => !seen.has(canonicalUrl(c.url)));
  return [...list, ...fresh].map((c, i) => ({ ...c, rank: i + 1 }));
}

/** Results of one engine, each naming that engine and its rank, as fused results do. */
function withOwnRank(list: Candidate[]): Candidate[] {
  return list.map((c) => ({ ...c, engines: [{ engine: c.engine, rank: c.rank }] }));
}
