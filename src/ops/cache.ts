/**
 * `quarry cache clear [query]` and `quarry cache stats`, plus the cache
 * flags every cached operation shares.
 * @module
 */
import { z } from "zod";
import type { Envelope } from "../envelope.ts";
import type { CacheStats } from "../store/kv/cache.ts";
import { CACHED_OPS, cacheOf } from "./with_cache.ts";
import { defineOp } from "./types.ts";

/** `--force/-f`: skip the cached answer and store the fresh one. */
export const forceField = z.boolean().default(false).describe(
  "Bypass the cache: compute a fresh answer and store it",
);

/** `--no-cache`: neither read nor write the cache. */
export const noCacheField = z.boolean().default(false).describe(
  "Do not use the cache at all (neither read nor store)",
);

const clearInput = z.object({
  query: z.string().trim().min(1).optional().describe(
    "Clear only the answers to this query (any operation); omit to clear everything",
  ),
  op: z.enum(CACHED_OPS).optional().describe(
    `Clear only this operation's answers: ${CACHED_OPS.join(", ")}`,
  ),
});

/** What `cache clear` removed. */
export interface ClearResult {
  cleared: number;
  query: string | null;
  op: string | null;
}

/** The `cache_clear` operation. */
export const cacheClearOp = defineOp({
  name: "cache_clear",
  command: ["cache", "clear"],
  summary: "Clear cached answers: those of one query, of one operation, or all",
  description:
    "Remove cached answers so the next call asks the web again. With a query, removes the " +
    "answers to that query from every operation (case and spacing do not matter; docs " +
    "answers are also found by library name); with op, " +
    "only that operation's; with neither, everything. Returns how many answers were removed.",
  input: clearInput,
  positionals: [{ field: "query" }],
  http: { method: "DELETE", path: "/cache" },
  mcp: {
    tool: "clear_cache",
    title: "Clear cached answers",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
  async run(ctx, args): Promise<Envelope<ClearResult>> {
    const cache = await cacheOf(ctx);
    const cleared = args.query !== undefined
      ? await cache.clearQuery(args.query, args.op)
      : await cache.clear(args.op);
    const result = { cleared, query: args.query ?? null, op: args.op ?? null };
    return { success: true, command: "cache_clear", results: [result], metadata: { cleared } };
  },
  render(envelope) {
    const r = (envelope.results as ClearResult[])[0];
    if (!r) return "";
    const scope = r.query !== null ? ` for "${r.query}"` : r.op !== null ? ` of ${r.op}` : "";
    return `Cleared ${r.cleared} cached answer${r.cleared === 1 ? "" : "s"}${scope}.\n`;
  },
});

/** One row of `cache stats`. */
export interface StatsRow {
  op: string;
  entries: number;
  bytes: number;
}

/** The `cache_stats` operation. */
export const cacheStatsOp = defineOp({
  name: "cache_stats",
  command: ["cache", "stats"],
  summary: "How many answers are cached, and their size, per operation",
  description: "Count the live cached answers and their bytes, in total and per operation.",
  input: z.object({}),
  http: { method: "GET", path: "/cache/stats" },
  async run(ctx): Promise<Envelope<StatsRow>> {
    const stats: CacheStats = await (await cacheOf(ctx)).stats();
    const results = Object.entries(stats.ops)
      .map(([op, s]) => ({ op, ...s }))
      .sort((a, b) => a.op.localeCompare(b.op));
    return {
      success: true,
      command: "cache_stats",
      results,
      metadata: { entries: stats.entries, bytes: stats.bytes, expired: stats.expired },
    };
  },
  render(envelope) {
    if (!envelope.success) return "";
    const rows = envelope.results as StatsRow[];
    const lines = rows.map((r) =>
      `${r.op.padEnd(12)} ${String(r.entries).padStart(6)}  ${r.bytes} B`
    );
    const m = envelope.metadata;
    lines.push(`${"total".padEnd(12)} ${String(m.entries).padStart(6)}  ${m.bytes} B`);
    if (m.expired) lines.push(`(${m.expired} expired, not yet removed)`);
    return lines.join("\n") + "\n";
  },
});
