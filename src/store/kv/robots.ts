/**
 * robots.txt answers in KV, one per origin: `["robots", origin]`, kept for
 * their time to live (KV expires them; a read checks the time as well, since
 * KV deletes expired entries lazily).
 * @module
 */
import type { RobotsCache, RobotsRecord } from "../../pipeline/robots.ts";

interface Stored {
  record: RobotsRecord;
  expiresAt: number;
}

/** A robots.txt cache over Deno KV; `now` is the clock the expiry is read with. */
export function kvRobots(kv: Deno.Kv, now: () => number): RobotsCache {
  return {
    async get(origin) {
      const entry = await kv.get<Stored>(["robots", origin]);
      return entry.value && entry.value.expiresAt > now() ? entry.value.record : undefined;
    },
    async set(origin, record, ttlMs) {
      await kv.set(["robots", origin], { record, expiresAt: now() + ttlMs }, { expireIn: ttlMs });
    },
  };
}
