/**
 * Engine health in Deno KV, so every process (CLI runs, servers) sees the
 * same cool-downs and request slots: `["health", engine]` holds the
 * {@linkcode HealthRecord}, `["ratelimit", engine]` the last request slot.
 * Writes are check-and-set loops, so two processes never lose an update.
 * @module
 */
import type { EngineHealth, HealthRecord } from "../../pipeline/engines/health.ts";

/** KV key of an engine's health record. */
export function healthKey(engine: string): Deno.KvKey {
  return ["health", engine];
}

/** KV key of an engine's last request slot. */
export function slotKey(engine: string): Deno.KvKey {
  return ["ratelimit", engine];
}

/** Attempts at a contended check-and-set before the write is forced. */
const MAX_CAS_TRIES = 8;
/** Two processes writing one SQLite file at once: the loser sees "database is locked". */
const LOCKED = /database is locked|database is busy/i;
const LOCK_RETRIES = 8;
const LOCK_BACKOFF_MS = 5;
/** Records outlive their last write by this much, then KV may drop them. */
const RECORD_TTL_MS = 7 * 86_400_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a KV write again while another handle (another process) holds the
 * file's lock, backing off a little more each time.
 */
export async function retryLocked<T>(
  write: () => Promise<T>,
  sleep: (ms: number) => Promise<void> = pause,
): Promise<T> {
  for (let i = 0;; i++) {
    try {
      return await write();
    } catch (error) {
      if (i >= LOCK_RETRIES || !(error instanceof Error && LOCKED.test(error.message))) throw error;
      await sleep(LOCK_BACKOFF_MS * (i + 1));
    }
  }
}

/**
 * Engine health over a Deno KV handle.
 *
 * @example
 * ```ts
 * const health = kvHealth(await Deno.openKv(":memory:"));
 * await health.reserve("bing", 1000, Date.now());
 * ```
 */
export function kvHealth(kv: Deno.Kv): EngineHealth {
  return {
    async get(engine) {
      return (await kv.get<HealthRecord>(healthKey(engine))).value ?? undefined;
    },
    async update(engine, change) {
      const key = healthKey(engine);
      for (let i = 0;; i++) {
        const entry = await retryLocked(() => kv.get<HealthRecord>(key));
        const next = change(entry.value ?? undefined);
        // After many lost races, write anyway: health is advice, not a ledger.
        const op = i < MAX_CAS_TRIES ? kv.atomic().check(entry) : kv.atomic();
        const done = await retryLocked(() =>
          op.set(key, next, { expireIn: RECORD_TTL_MS }).commit()
        );
        if (done.ok) return next;
      }
    },
    async reserve(engine, intervalMs, now) {
      const key = slotKey(engine);
      for (let i = 0;; i++) {
        const entry = await retryLocked(() => kv.get<{ at: number }>(key));
        const slot = Math.max(now, (entry.value?.at ?? -Infinity) + intervalMs);
        const op = i < MAX_CAS_TRIES ? kv.atomic().check(entry) : kv.atomic();
        const done = await retryLocked(() =>
          op.set(key, { at: slot }, { expireIn: Math.max(1, slot - now + intervalMs) }).commit()
        );
        if (done.ok) return slot;
      }
    },
  };
}
