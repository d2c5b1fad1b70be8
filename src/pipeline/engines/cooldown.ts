/**
 * Engine state shared through Deno KV, so every process (CLI runs, servers)
 * sees it: the cool-down of a blocked engine (`["cooldown", engine]`) and
 * the time of the last request to each engine (`["ratelimit", engine]`).
 * @module
 */
import type { ErrorCode } from "../../errors.ts";

/** Why and until when an engine is skipped. */
export interface Cooldown {
  /** Milliseconds since the epoch. */
  until: number;
  code: ErrorCode;
  message: string;
}

/** KV key of an engine's cool-down. */
export function cooldownKey(engine: string): Deno.KvKey {
  return ["cooldown", engine];
}

/** KV key of the last request time of an engine. */
export function rateLimitKey(engine: string): Deno.KvKey {
  return ["ratelimit", engine];
}

/**
 * The engine's cool-down if it is still running. Expiry in KV is lazy, so
 * the stored `until` is what decides.
 */
export async function readCooldown(
  kv: Deno.Kv,
  engine: string,
  now: number,
): Promise<Cooldown | undefined> {
  const entry = await kv.get<Cooldown>(cooldownKey(engine));
  return entry.value && entry.value.until > now ? entry.value : undefined;
}

/** Puts an engine on cool-down until `cooldown.until`. */
export async function writeCooldown(
  kv: Deno.Kv,
  engine: string,
  cooldown: Cooldown,
  now: number,
): Promise<void> {
  await kv.set(cooldownKey(engine), cooldown, { expireIn: Math.max(1, cooldown.until - now) });
}

/** Ends an engine's cool-down (doctor, tests). */
export async function clearCooldown(kv: Deno.Kv, engine: string): Promise<void> {
  await kv.delete(cooldownKey(engine));
}

/** What {@linkcode awaitTurn} needs. */
export interface TurnDeps {
  kv: Deno.Kv;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

/** Attempts at reserving a slot before giving up on coordination and going ahead. */
const MAX_RESERVE_TRIES = 8;
/** Two processes writing one SQLite file at once: the loser sees "database is locked". */
const LOCKED = /database is locked|database is busy/i;
const LOCK_RETRIES = 8;
const LOCK_BACKOFF_MS = 5;

/**
 * Runs a KV write again while another handle (another process) holds the
 * file's lock, backing off a little more each time.
 */
export async function retryLocked<T>(
  write: () => Promise<T>,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  signal?: AbortSignal,
): Promise<T> {
  for (let i = 0;; i++) {
    try {
      return await write();
    } catch (error) {
      if (i >= LOCK_RETRIES || !(error instanceof Error && LOCKED.test(error.message))) throw error;
      await sleep(LOCK_BACKOFF_MS * (i + 1), signal);
    }
  }
}

/**
 * Waits until at least `intervalMs` have passed since the last request to
 * this engine, from any process. The slot is reserved with an atomic
 * check-and-set, so two processes asking at once are spaced out too.
 * Returns the milliseconds waited for politeness.
 */
export async function awaitTurn(
  engine: string,
  intervalMs: number,
  deps: TurnDeps,
): Promise<number> {
  if (intervalMs <= 0) return 0;
  const key = rateLimitKey(engine);
  const reserve = async (): Promise<number | undefined> => {
    const entry = await deps.kv.get<{ at: number }>(key);
    const now = deps.now();
    const slot = Math.max(now, (entry.value?.at ?? -Infinity) + intervalMs);
    const result = await deps.kv.atomic().check(entry).set(key, { at: slot }, {
      expireIn: slot - now + intervalMs,
    }).commit();
    return result.ok ? slot : undefined;
  };
  let slot: number | undefined;
  for (let i = 0; slot === undefined && i < MAX_RESERVE_TRIES; i++) {
    slot = await retryLocked(reserve, deps.sleep, deps.signal);
  }
  // Still contended after every try: the delay is a courtesy, not worth failing a search.
  const wait = (slot ?? deps.now()) - deps.now();
  if (wait > 0) await deps.sleep(wait, deps.signal);
  return Math.max(0, wait);
}
