/**
 * The cache as operations use it: answer from the cache when a live entry
 * exists, else compute, keep the answer if it succeeded, and say which
 * happened in `metadata.cache_hit`.
 * @module
 */
import type { Envelope } from "../envelope.ts";
import { type Cache, createCache } from "../store/kv/cache.ts";

/** Operations whose answers are cached; `cache clear --op` takes one of these. */
export const CACHED_OPS = ["search", "docs", "deep"] as const;

/** Name of an operation whose answers are cached. */
export type CachedOp = typeof CACHED_OPS[number];

/** The part of an operation context the cache needs. */
export interface CacheContext {
  config: { cacheTtlMs: number };
  now: () => number;
  stores: { kv(): Promise<Deno.Kv> };
  progress: (line: string) => void;
}

/** Options of {@linkcode withCache}. */
export interface WithCacheOptions {
  /** Time to live of a stored answer. @default {config.cacheTtlMs} */
  ttlMs?: number;
  /** Skip reading the cache but store the fresh answer (`--force`). @default {false} */
  force?: boolean;
  /** Neither read nor write the cache (`--no-cache`). @default {false} */
  noCache?: boolean;
  /**
   * Texts under which `cache clear <text>` finds the entry.
   * @default {the input's `query` field}
   */
  index?: string[];
}

/** The cache of an operation context, over its KV store. */
export async function cacheOf(ctx: CacheContext): Promise<Cache> {
  return createCache(await ctx.stores.kv(), { now: ctx.now, ttlMs: ctx.config.cacheTtlMs });
}

function defaultIndex(input: unknown): string[] {
  const query = (input as { query?: unknown } | null)?.query;
  return typeof query === "string" && query.trim() !== "" ? [query] : [];
}

function marked<R>(envelope: Envelope<R>, extra: Record<string, unknown>): Envelope<R> {
  return { ...envelope, metadata: { ...envelope.metadata, ...extra } } as Envelope<R>;
}

/**
 * Runs `compute` unless the cache holds an answer for `(op, input)`. Only
 * successful envelopes are stored. The cache is a convenience: when the
 * store fails, the answer is computed anyway and `metadata.cache_error` says
 * why it was not cached.
 *
 * @example
 * ```ts
 * const envelope = await withCache(ctx, "docs", input, { ttlMs: 86_400_000 }, () => compute());
 * envelope.metadata?.cache_hit; // false the first time, true afterwards
 * ```
 */
export async function withCache<R>(
  ctx: CacheContext,
  op: CachedOp,
  input: unknown,
  options: WithCacheOptions,
  compute: () => Promise<Envelope<R>>,
): Promise<Envelope<R>> {
  if (options.noCache) return marked(await compute(), { cache_hit: false });
  const started = ctx.now();
  let cache: Cache | undefined;
  let cacheError: string | undefined;
  try {
    cache = await cacheOf(ctx);
    if (!options.force) {
      const hit = await cache.get<Envelope<R>>(op, input);
      if (hit?.value.success) {
        return marked(hit.value, {
          cache_hit: true,
          cached_at: new Date(hit.createdAt).toISOString(),
          cache_age_ms: Math.max(0, ctx.now() - hit.createdAt),
          elapsed_ms: ctx.now() - started,
        });
      }
    }
  } catch (error) {
    cacheError = error instanceof Error ? error.message : String(error);
  }
  const fresh = marked(await compute(), { cache_hit: false });
  if (cache && fresh.success) {
    try {
      await cache.set(op, input, fresh, {
        ttlMs: options.ttlMs ?? ctx.config.cacheTtlMs,
        index: options.index ?? defaultIndex(input),
      });
    } catch (error) {
      cacheError = error instanceof Error ? error.message : String(error);
    }
  }
  if (cacheError !== undefined) ctx.progress(`cache unavailable: ${cacheError}`);
  return cacheError === undefined ? fresh : marked(fresh, { cache_error: cacheError });
}
