/**
 * The interface every search backend implements, so the chain in `mod.ts`
 * and one contract test treat them all alike.
 * @module
 */
import type { Config } from "../../config.ts";
import type { ErrorCode } from "../../errors.ts";
import type { ParsedQuery } from "../query.ts";
import type { Candidate } from "../types.ts";

/** Every backend Quarry knows, in no particular order. */
export const ENGINE_NAMES = [
  "duckduckgo",
  "duckduckgo-lite",
  "bing",
  "mojeek",
  "google",
  "searxng",
  "brave",
  "exa",
  "startpage",
  "brave-html",
  "wikipedia",
] as const;

/** Name of a backend. */
export type EngineName = typeof ENGINE_NAMES[number];

/** Time ranges every engine maps to its own parameter. */
export const TIME_RANGES = ["day", "week", "month", "year"] as const;

/** How recent results must be. */
export type TimeRange = typeof TIME_RANGES[number];

/** What a caller asks of one engine. */
export interface EngineOptions {
  /** How many results are wanted; engines may return more or fewer. */
  count: number;
  /** Region such as `us-en` (DuckDuckGo style) or `en-US`. */
  region?: string;
  time?: TimeRange;
  /** Result page, from 1, for engines that page. @default {1} */
  page?: number;
}

/** The outside world an engine may touch. */
export interface EngineDeps {
  config: Config;
  fetch: typeof globalThis.fetch;
  /** Milliseconds since the epoch (for time ranges given as dates). */
  now: () => number;
  signal?: AbortSignal;
}

/** Whether an engine can be used at all with this config: `true`, or why not. */
export type Availability = true | string;

/** One search backend. */
export interface Engine {
  name: EngineName;
  /** Environment variable holding the API key, for engines that need one. */
  needsKey?: "BRAVE_API_KEY" | "EXA_API_KEY";
  /** Understands `site:`, quotes, `-term`, `filetype:` and `OR` in the query text. */
  operators: boolean;
  /**
   * Answers only from its own site (Wikipedia): never put ahead of the
   * general engines by health, only asked when they fail.
   */
  ownSiteOnly?: boolean;
  /** Results on one page, for engines that can be asked for the next page. */
  pageSize?: number;
  /** `true` when configured (key present, URL set), else the reason it is not. */
  available(config: Config): Availability;
  /**
   * Asks the engine. Throws a QuarryError: `CAPTCHA` or `RATE_LIMITED` when
   * blocked, `UPSTREAM_ERROR` for a failure or an unrecognised answer,
   * `TIMEOUT`; an empty array only when the engine says it found nothing.
   */
  search(query: ParsedQuery, options: EngineOptions, deps: EngineDeps): Promise<Candidate[]>;
}

/** What happened when the chain came to one engine. */
export interface Attempt {
  engine: string;
  outcome: "ok" | "blocked" | "error" | "cooldown" | "skipped" | "cancelled";
  code?: ErrorCode;
  message?: string;
  /** End of the cool-down (ISO time), for `blocked` and `cooldown`. */
  until?: string;
  /** Results the engine gave that satisfy the query's operators. */
  results?: number;
  elapsed_ms?: number;
  /** Host that could not be reached at all (DNS or connection failure). */
  unreachable?: string;
  /** What would fix this engine's error (e.g. SearXNG without JSON output). */
  hint?: string;
  /** Result pages asked for, when more than one. */
  pages?: number;
}
