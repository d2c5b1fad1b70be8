/**
 * Engine health: what the chain remembers about each engine (answers,
 * latency, blocks, cool-down) and the pacing rules built on it. The record
 * lives behind {@linkcode EngineHealth}, which the stores implement (Deno KV
 * in `store/kv/health.ts`) and the ops pass in; the rules here are pure.
 * @module
 */
import type { ErrorCode } from "../../errors.ts";

/** What is known about one engine. */
export interface HealthRecord {
  /** Answers (with or without results) since the record began. */
  successes: number;
  /** Errors that were not blocks (timeouts, 5xx, unreachable, broken pages). */
  failures: number;
  /** Blocks (CAPTCHA, 403, 429) since the record began. */
  blocks: number;
  /** Blocks since the last answer: drives the exponential back-off. */
  streak: number;
  /** Moving average of answer latency, milliseconds. */
  latencyMs: number;
  /** Recent outcomes, newest last, 1 for an answer and 0 for a failure or block. */
  recent: number[];
  /** Time of the last block, ms since the epoch. */
  lastBlock?: number;
  /** Skip the engine until then (ms since the epoch). */
  until?: number;
  code?: ErrorCode;
  message?: string;
}

/** Where health records are kept. Every implementation passes one contract test. */
export interface EngineHealth {
  /** The engine's record, or undefined when it was never asked. */
  get(engine: string): Promise<HealthRecord | undefined>;
  /** Applies `change` atomically (other processes may write at once) and returns the result. */
  update(
    engine: string,
    change: (old: HealthRecord | undefined) => HealthRecord,
  ): Promise<HealthRecord>;
  /**
   * Reserves the next request slot of an engine: the later of `now` and the
   * last slot plus `intervalMs`, atomically across processes. Returns the slot.
   */
  reserve(engine: string, intervalMs: number, now: number): Promise<number>;
}

/** Back-off of blocked engines. */
export interface PacingConfig {
  /** Cool-down after a first block. @default {60_000} */
  cooldownMs: number;
  /** Longest cool-down, however many blocks in a row. @default {1_800_000} */
  maxCooldownMs: number;
}

/** Default pacing: a first block cools an engine for a minute, doubling up to 30 minutes. */
export const DEFAULT_PACING: PacingConfig = { cooldownMs: 60_000, maxCooldownMs: 1_800_000 };

/** Outcomes kept for the success rate. */
const RECENT = 20;
/** Weight of the newest latency in the moving average. */
const LATENCY_WEIGHT = 0.3;
/** Share of the polite delay added at random, so requests do not fall into a rhythm. */
export const JITTER = 0.5;

function empty(): HealthRecord {
  return { successes: 0, failures: 0, blocks: 0, streak: 0, latencyMs: 0, recent: [] };
}

function push(recent: number[], value: number): number[] {
  return [...recent, value].slice(-RECENT);
}

/** The record after an answer: the block streak ends and the cool-down with it. */
export function afterSuccess(old: HealthRecord | undefined, latencyMs: number): HealthRecord {
  const r = old ?? empty();
  const latency = r.successes === 0
    ? latencyMs
    : Math.round(r.latencyMs * (1 - LATENCY_WEIGHT) + latencyMs * LATENCY_WEIGHT);
  const { until: _u, code: _c, message: _m, ...rest } = r;
  return {
    ...rest,
    successes: r.successes + 1,
    streak: 0,
    latencyMs: latency,
    recent: push(r.recent, 1),
  };
}

/** The record after an error that is not a block: counted, no cool-down. */
export function afterFailure(old: HealthRecord | undefined): HealthRecord {
  const r = old ?? empty();
  return { ...r, failures: r.failures + 1, recent: push(r.recent, 0) };
}

/** What a block said. */
export interface BlockInfo {
  code: ErrorCode;
  message: string;
  /** The engine's Retry-After, seconds. */
  retryAfter?: number | undefined;
}

/**
 * Cool-down of the n-th block in a row: `cooldownMs · 2^(n-1)`, capped. A
 * first block with a Retry-After waits exactly what the engine asked; after
 * that the Retry-After is a floor under the back-off.
 */
export function cooldownFor(streak: number, pacing: PacingConfig, retryAfter?: number): number {
  const backoff = Math.min(
    pacing.maxCooldownMs,
    pacing.cooldownMs * 2 ** Math.max(0, Math.min(30, streak - 1)),
  );
  if (retryAfter === undefined) return backoff;
  return streak <= 1 ? retryAfter * 1000 : Math.max(backoff, retryAfter * 1000);
}

/** The record after a block: the streak grows and the engine cools down. */
export function afterBlock(
  old: HealthRecord | undefined,
  block: BlockInfo,
  now: number,
  pacing: PacingConfig,
): HealthRecord {
  const r = old ?? empty();
  const streak = r.streak + 1;
  return {
    ...r,
    blocks: r.blocks + 1,
    streak,
    recent: push(r.recent, 0),
    lastBlock: now,
    until: now + cooldownFor(streak, pacing, block.retryAfter),
    code: block.code,
    message: block.message,
  };
}

/** The end of the engine's cool-down if it is still running. */
export function coolingUntil(record: HealthRecord | undefined, now: number): number | undefined {
  return record?.until !== undefined && record.until > now ? record.until : undefined;
}

/** Share of recent outcomes that were answers; an engine never asked counts as healthy. */
export function successRate(record: HealthRecord | undefined): number {
  if (!record || record.recent.length === 0) return 1;
  return record.recent.reduce((a, b) => a + b, 0) / record.recent.length;
}

/** Latencies within one step count as equal, so small noise does not reorder the chain. */
const LATENCY_STEP_MS = 1000;

/**
 * Orders engines healthiest first: recent success rate, then a recent block
 * (later block, later turn), then latency in whole seconds; ties keep the
 * given order.
 */
export function byHealth<T extends string>(
  names: readonly T[],
  records: ReadonlyMap<string, HealthRecord | undefined>,
): T[] {
  const score = (name: T) => {
    const r = records.get(name);
    const latency = Math.floor((r?.latencyMs ?? 0) / LATENCY_STEP_MS);
    return { rate: successRate(r), block: r?.lastBlock ?? 0, latency };
  };
  return names.map((name, i) => ({ name, i, s: score(name) }))
    .sort((a, b) =>
      b.s.rate - a.s.rate || a.s.block - b.s.block || a.s.latency - b.s.latency || a.i - b.i
    )
    .map((x) => x.name);
}

/** The polite gap before a request: the delay plus up to {@linkcode JITTER} of it at random. */
export function spacing(intervalMs: number, random: () => number): number {
  return intervalMs <= 0 ? 0 : Math.round(intervalMs * (1 + JITTER * random()));
}

/**
 * Health kept in memory, for one process (tests, benchmarks). Writes are
 * applied one at a time, so `update` is atomic within the process.
 */
export function memoryHealth(): EngineHealth {
  const records = new Map<string, HealthRecord>();
  const slots = new Map<string, number>();
  return {
    get: (engine) => Promise.resolve(records.get(engine)),
    update(engine, change) {
      const next = change(records.get(engine));
      records.set(engine, next);
      return Promise.resolve(next);
    },
    reserve(engine, intervalMs, now) {
      const slot = Math.max(now, (slots.get(engine) ?? -Infinity) + intervalMs);
      slots.set(engine, slot);
      return Promise.resolve(slot);
    },
  };
}
