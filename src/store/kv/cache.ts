/**
 * The answer cache in Deno KV (DESIGN §6): `["cache", op, sha256(normalized
 * input)]` → a header `{createdAt, expiresAt, bytes, chunks, …}` with the
 * value's JSON (UTF-8) inline, or split over `["cache", op, hash, "chunk", i]`
 * when it is larger than one KV value (64 KiB).
 *
 * An entry is written in one atomic commit whenever it fits Deno KV's atomic
 * limits (1000 mutations, 800 KiB in total) — up to about 750 KiB of JSON.
 * A larger entry is written in several commits: the old header is deleted
 * first and the new one written last, so a reader sees either nothing or a
 * whole entry; a SHA-256 in the header catches chunks mixed by two writers
 * racing. Entries over `maxEntryBytes` are not cached at all.
 *
 * Entries are written with `expireIn`, but KV expiry is lazy, so reads also
 * check `expiresAt` against the injected clock. `["cache_query", text, op,
 * hash]` indexes each entry under its query text for `cache clear <query>`.
 * @module
 */
import { inputHash, queryIndexKey, sha256Hex } from "./cache_key.ts";

/** How the cache stores entries. */
export interface CacheConfig {
  /** Time to live when `set` is given none. @default {86_400_000} (24 h) */
  ttlMs: number;
  /** Bytes of JSON per chunk; below KV's 64 KiB value limit. @default {61_440} */
  chunkBytes: number;
  /** Bytes one atomic commit may carry; below KV's 800 KiB limit. @default {768_000} */
  maxAtomicBytes: number;
  /** Larger values are not cached. @default {16_777_216} */
  maxEntryBytes: number;
}

/** Default {@linkcode CacheConfig}. */
export const DEFAULT_CACHE_CONFIG: CacheConfig = {
  ttlMs: 24 * 3_600_000,
  chunkBytes: 60 * 1024,
  maxAtomicBytes: 750 * 1024,
  maxEntryBytes: 16 * 1024 * 1024,
};

/** Room for a header, index entries and the keys of one commit. */
const COMMIT_OVERHEAD_BYTES = 16 * 1024;
/** Keys deleted per commit: well inside KV's mutation and key-size limits. */
const DELETE_BATCH = 200;

interface Header {
  createdAt: number;
  expiresAt: number;
  bytes: number;
  chunks: number;
  /** The JSON itself when `chunks` is 0. */
  data?: Uint8Array;
  /** SHA-256 of the JSON when chunked. */
  sha256?: string;
  /** Query-index key parts this entry is listed under. */
  index: string[];
}

/** A value read back from the cache. */
export interface CacheHit<T = unknown> {
  value: T;
  createdAt: number;
  expiresAt: number;
}

/** Live entries and their size, in total and per op. */
export interface CacheStats {
  entries: number;
  bytes: number;
  /** Entries past their time to live that KV has not removed yet. */
  expired: number;
  ops: Record<string, { entries: number; bytes: number }>;
}

/** Options of {@linkcode Cache.set}. */
export interface SetOptions {
  ttlMs?: number;
  /** Query texts under which `cache clear <query>` finds this entry. */
  index?: string[];
}

/** The cache API. */
export interface Cache {
  get<T = unknown>(op: string, input: unknown): Promise<CacheHit<T> | undefined>;
  /** Stores a JSON value; false when it is too large to cache. */
  set(op: string, input: unknown, value: unknown, options?: SetOptions): Promise<boolean>;
  /** Removes one entry (op and input), an op's entries, or everything; returns entries removed. */
  clear(op?: string, input?: unknown): Promise<number>;
  /** Removes every entry indexed under a query text (of one op, if given); returns entries removed. */
  clearQuery(text: string, op?: string): Promise<number>;
  stats(): Promise<CacheStats>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

async function deleteKeys(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH) {
    const op = kv.atomic();
    for (const key of keys.slice(i, i + DELETE_BATCH)) op.delete(key);
    await op.commit();
  }
}

async function listKeys(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix })) keys.push(entry.key);
  return keys;
}

/**
 * Opens the cache over a KV store; `now` is the clock checked against
 * `expiresAt`.
 *
 * @example
 * ```ts
 * const cache = createCache(kv, { now: Date.now });
 * await cache.set("docs", { library: "react" }, envelope);
 * (await cache.get("docs", { library: "React " }))?.value; // envelope
 * ```
 */
export function createCache(
  kv: Deno.Kv,
  options: { now: () => number } & Partial<CacheConfig>,
): Cache {
  const config: CacheConfig = { ...DEFAULT_CACHE_CONFIG, ...options };
  const { now } = options;

  async function readEntry(op: string, hash: string): Promise<CacheHit | undefined> {
    const head = await kv.get<Header>(["cache", op, hash]);
    const header = head.value;
    if (!header || header.expiresAt <= now()) return undefined;
    let bytes: Uint8Array;
    if (header.chunks === 0) {
      if (!header.data) return undefined;
      bytes = header.data;
    } else {
      const parts: Uint8Array[] = [];
      const iter = kv.list<Uint8Array>({ prefix: ["cache", op, hash, "chunk"] });
      for await (const entry of iter) {
        if (entry.key[4] !== parts.length) return undefined;
        parts.push(entry.value);
      }
      if (parts.length !== header.chunks) return undefined;
      bytes = concat(parts, parts.reduce((n, p) => n + p.length, 0));
      if (bytes.length !== header.bytes) return undefined;
      if (await sha256Hex(decoder.decode(bytes)) !== header.sha256) return undefined;
    }
    try {
      const value: unknown = JSON.parse(decoder.decode(bytes));
      return { value, createdAt: header.createdAt, expiresAt: header.expiresAt };
    } catch {
      return undefined; // A damaged entry is a miss, never an error.
    }
  }

  async function removeEntry(op: string, hash: string): Promise<boolean> {
    const head = await kv.get<Header>(["cache", op, hash]);
    // A prefix lists only the keys below it: the header is added by hand.
    const keys: Deno.KvKey[] = [["cache", op, hash], ...await listKeys(kv, ["cache", op, hash])];
    if (head.value) {
      keys.push(...head.value.index.map((q) => ["cache_query", q, op, hash]));
    }
    await deleteKeys(kv, keys);
    return head.value !== null;
  }

  return {
    async get<T>(op: string, input: unknown) {
      return await readEntry(op, await inputHash(input)) as CacheHit<T> | undefined;
    },

    async set(op, input, value, setOptions = {}) {
      const json = encoder.encode(JSON.stringify(value));
      if (json.length > config.maxEntryBytes) return false;
      const hash = await inputHash(input);
      const ttl = setOptions.ttlMs ?? config.ttlMs;
      const createdAt = now();
      const index = [...new Set(await Promise.all((setOptions.index ?? []).map(queryIndexKey)))];
      const key: Deno.KvKey = ["cache", op, hash];
      const chunked = json.length > config.chunkBytes;
      const header: Header = {
        createdAt,
        expiresAt: createdAt + ttl,
        bytes: json.length,
        chunks: chunked ? Math.ceil(json.length / config.chunkBytes) : 0,
        index,
        ...(chunked ? { sha256: await sha256Hex(decoder.decode(json)) } : { data: json }),
      };
      // Chunks of an earlier, larger value under the same key must not linger.
      const stale = (await listKeys(kv, [...key, "chunk"]))
        .filter((k) => (k[4] as number) >= header.chunks);
      const atomicBytes = json.length + COMMIT_OVERHEAD_BYTES;
      const finish = kv.atomic().set(key, header, { expireIn: ttl });
      for (const q of index) finish.set(["cache_query", q, op, hash], createdAt, { expireIn: ttl });
      for (const k of stale.slice(0, DELETE_BATCH)) finish.delete(k);
      if (atomicBytes > config.maxAtomicBytes) {
        // Too big for one commit: hide the entry, write chunks, then the header.
        await kv.delete(key);
        const perCommit = Math.max(1, Math.floor(config.maxAtomicBytes / config.chunkBytes) - 1);
        for (let first = 0; first < header.chunks; first += perCommit) {
          const batch = kv.atomic();
          for (let i = first; i < Math.min(header.chunks, first + perCommit); i++) {
            const part = json.subarray(i * config.chunkBytes, (i + 1) * config.chunkBytes);
            batch.set([...key, "chunk", i], part, { expireIn: ttl });
          }
          await batch.commit();
        }
      } else {
        for (let i = 0; i < header.chunks; i++) {
          const part = json.subarray(i * config.chunkBytes, (i + 1) * config.chunkBytes);
          finish.set([...key, "chunk", i], part, { expireIn: ttl });
        }
      }
      await finish.commit();
      await deleteKeys(kv, stale.slice(DELETE_BATCH));
      return true;
    },

    async clear(op, input) {
      if (op !== undefined && input !== undefined) {
        return await removeEntry(op, await inputHash(input)) ? 1 : 0;
      }
      const keys = await listKeys(kv, op === undefined ? ["cache"] : ["cache", op]);
      const indexKeys = (await listKeys(kv, ["cache_query"]))
        .filter((k) => op === undefined || k[2] === op);
      await deleteKeys(kv, [...keys, ...indexKeys]);
      return keys.filter((k) => k.length === 3).length;
    },

    async clearQuery(text, op) {
      const keys = (await listKeys(kv, ["cache_query", await queryIndexKey(text)]))
        .filter((k) => op === undefined || k[2] === op);
      let removed = 0;
      for (const k of keys) {
        if (await removeEntry(String(k[2]), String(k[3]))) removed++;
      }
      await deleteKeys(kv, keys);
      return removed;
    },

    async stats() {
      const stats: CacheStats = { entries: 0, bytes: 0, expired: 0, ops: {} };
      for await (const entry of kv.list<Header>({ prefix: ["cache"] })) {
        if (entry.key.length !== 3) continue;
        if (entry.value.expiresAt <= now()) {
          stats.expired++;
          continue;
        }
        const op = String(entry.key[1]);
        const perOp = stats.ops[op] ??= { entries: 0, bytes: 0 };
        perOp.entries++;
        perOp.bytes += entry.value.bytes;
        stats.entries++;
        stats.bytes += entry.value.bytes;
      }
      return stats;
    },
  };
}
