/**
 * Sessions: within one session key, a page already returned for the same
 * question (same stemmed query tokens) is not returned again.
 * @module
 */
import { tokenize } from "../../text/tokenize.ts";
import { sha256Hex } from "./cache_key.ts";

/** Default session lifetime: one hour. */
export const DEFAULT_SESSION_TTL_MS = 3_600_000;

/** The stable part of a query for session keys: its sorted, distinct stemmed tokens. */
export function queryTokensKey(query: string): string {
  return [...new Set(tokenize(query))].sort().join(" ");
}

/** `url + ":" + sorted stemmed query tokens` (DESIGN §6). */
export function seenKey(url: string, query: string): string {
  return `${url}:${queryTokensKey(query)}`;
}

/** Which URLs a session has already been given, in Deno KV. */
export interface SessionStore {
  /** The subset of `urls` already returned in this session for this query. */
  seen(session: string, query: string, urls: string[]): Promise<Set<string>>;
  /** Records `urls` as returned. */
  mark(session: string, query: string, urls: string[]): Promise<void>;
}

/** KV keys are at most 2 KiB; very long URLs are hashed into the key instead. */
const MAX_KEY_PART = 1500;

async function keyPart(text: string): Promise<string> {
  return text.length <= MAX_KEY_PART ? text : `sha256:${await sha256Hex(text)}`;
}

/**
 * A session store over Deno KV with a TTL. KV expiry is lazy, so each entry
 * also carries its end time, checked on read against the injected clock.
 */
export function kvSessions(
  kv: Deno.Kv,
  options: { ttlMs?: number; now: () => number },
): SessionStore {
  const ttlMs = options.ttlMs ?? DEFAULT_SESSION_TTL_MS;
  return {
    async seen(session, query, urls) {
      const keys = await Promise.all(urls.map((u) => keyPart(seenKey(u, query))));
      const out = new Set<string>();
      // getMany takes at most 10 keys.
      for (let i = 0; i < keys.length; i += 10) {
        const batch = keys.slice(i, i + 10).map((k) => ["session", session, k]);
        const entries = await kv.getMany<{ until: number }[]>(batch);
        const now = options.now();
        entries.forEach((e, j) => {
          if (e.value !== null && e.value.until > now) out.add(urls[i + j]!);
        });
      }
      return out;
    },
    async mark(session, query, urls) {
      for (let i = 0; i < urls.length; i += 10) {
        const op = kv.atomic();
        for (const url of urls.slice(i, i + 10)) {
          op.set(["session", session, await keyPart(seenKey(url, query))], {
            until: options.now() + ttlMs,
          }, {
            expireIn: ttlMs,
          });
        }
        await op.commit();
      }
    },
  };
}
