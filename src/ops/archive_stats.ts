/**
 * `quarry archive stats`: what the archive holds.
 * @module
 */
import { z } from "zod";
import type { Envelope } from "../envelope.ts";
import type { ArchiveStats } from "../store/archive/archive.ts";
import { defineOp } from "./types.ts";

/** The `archive_stats` operation. */
export const archiveStatsOp = defineOp({
  name: "archive_stats",
  command: ["archive", "stats"],
  summary: "Count archived documents, citations, queries and indexed files",
  description:
    "How many documents the archive holds (by source), citations (by kind, and how many point " +
    "to archived documents), research queries, indexed files, the date range and the size.",
  input: z.object({}),
  http: { method: "GET", path: "/archive/stats" },
  async run(ctx): Promise<Envelope<ArchiveStats>> {
    const stats = (await ctx.stores.archive()).stats();
    return { success: true, command: "archive_stats", results: [stats], metadata: {} };
  },
  render(envelope) {
    const s = (envelope.results as ArchiveStats[] | undefined)?.[0];
    if (!s) return "";
    const groups = (g: Record<string, number>) =>
      Object.entries(g).map(([k, n]) => `${k} ${n}`).join(", ") || "none";
    return [
      `documents  ${s.documents} (${groups(s.bySource)})`,
      `citations  ${s.citations} (${
        groups(s.byKind)
      }; ${s.resolvedCitations} to archived documents)`,
      `queries    ${s.queries}`,
      `files      ${s.indexedFiles} indexed`,
      `dates      ${s.oldest?.slice(0, 10) ?? "-"} … ${s.newest?.slice(0, 10) ?? "-"}`,
      `size       ${(s.bytes / 1e6).toFixed(1)} MB`,
    ].join("\n") + "\n";
  },
});
