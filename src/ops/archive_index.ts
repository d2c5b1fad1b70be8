/**
 * `quarry archive index <dir…>`: index folders of Markdown, text, HTML and
 * JSON files into the archive, incrementally; `--watch` keeps indexing as
 * files change.
 * @module
 */
import { z } from "zod";
import type { Envelope } from "../envelope.ts";
import { extract } from "../pipeline/extract/mod.ts";
import {
  type IndexCounts,
  type IndexDeps,
  indexFolders,
  watchFolders,
} from "../store/archive/indexer.ts";
import type { Archive } from "../store/archive/archive.ts";
import { defineOp, type OpContext } from "./types.ts";

/** Least time between two progress lines. */
const PROGRESS_EVERY_MS = 250;

const input = z.object({
  dirs: z.array(z.string().trim().min(1)).min(1).describe(
    "Folders (or single files) to index; sub-folders are included",
  ),
  source: z.enum(["file", "research", "url-content"]).default("file").describe(
    "Source recorded for the documents: file, research (reports) or url-content (saved pages)",
  ),
  watch: z.boolean().default(false).describe(
    "Keep running and re-index whenever a file changes (CLI; stop with Ctrl-C)",
  ),
  force: z.boolean().default(false).describe("Re-read every file, even unchanged ones"),
});

/** What one indexing run did, in the envelope. */
export interface IndexResult {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  skipped: number;
  documents: number;
  failed: { path: string; reason: string }[];
}

/** One line saying what a run did. */
export function countsLine(c: IndexCounts): string {
  const failed = c.failed.length > 0 ? `, ${c.failed.length} failed` : "";
  return `${c.added} added, ${c.updated} updated, ${c.removed} removed, ${c.unchanged} unchanged` +
    `${c.skipped > 0 ? `, ${c.skipped} skipped` : ""}${failed}`;
}

/** Indexing dependencies from an operation context: progress is throttled. */
export function indexDeps(ctx: OpContext, archive: Archive): IndexDeps {
  let last = 0;
  return {
    archive,
    extractHtml: (html, url) => extract(html, url).article,
    now: ctx.now,
    progress: (p) => {
      const now = ctx.now();
      if (p.done !== p.total && now - last < PROGRESS_EVERY_MS) return;
      last = now;
      ctx.progress(`indexing ${p.done}/${p.total} ${p.path}`);
    },
  };
}

/** The `archive_index` operation. */
export const archiveIndexOp = defineOp({
  name: "archive_index",
  command: ["archive", "index"],
  summary: "Index folders of Markdown, text, HTML and JSON files into the archive",
  description:
    "Read the Markdown, plain text, HTML and JSON (saved pages with url/title/content) files " +
    "of folders into the archive, so `archive search` finds them. Incremental: unchanged " +
    "files are skipped and deleted files leave the archive. Returns counts of files added, " +
    "updated, removed and unchanged.",
  input,
  positionals: [{ field: "dirs", variadic: true }],
  http: { method: "POST", path: "/archive/index" },
  async run(ctx, args): Promise<Envelope<IndexResult>> {
    const started = ctx.now();
    const archive = await ctx.stores.archive();
    const deps = indexDeps(ctx, archive);
    const options = { source: args.source, force: args.force };
    let counts: IndexCounts;
    if (!args.watch) counts = await indexFolders(args.dirs, deps, options);
    else {
      counts = {
        added: 0,
        updated: 0,
        removed: 0,
        unchanged: 0,
        skipped: 0,
        failed: [],
        documents: 0,
      };
      const total = counts;
      ctx.progress(
        `watching ${args.dirs.join(", ")}: indexing now and on every change (Ctrl-C stops)`,
      );
      await watchFolders(args.dirs, deps, {
        ...options,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        onIndexed: (c) => {
          ctx.progress(`indexed: ${countsLine(c)}`);
          total.added += c.added;
          total.updated += c.updated;
          total.removed += c.removed;
          total.unchanged = c.unchanged;
          total.skipped = c.skipped;
          total.documents += c.documents;
          total.failed.push(...c.failed);
        },
      });
    }
    const { added, updated, removed, unchanged, skipped, documents, failed } = counts;
    return {
      success: true,
      command: "archive_index",
      results: [{ added, updated, removed, unchanged, skipped, documents, failed }],
      metadata: {
        added,
        updated,
        removed,
        unchanged,
        failed: failed.length,
        elapsed_ms: ctx.now() - started,
      },
    };
  },
  render(envelope) {
    const r = (envelope.results as IndexResult[] | undefined)?.[0];
    if (!r) return "";
    const lines = [`Indexed: ${countsLine({ ...r })} (${r.documents} documents written).`];
    for (const f of r.failed) lines.push(`  failed: ${f.path}: ${f.reason}`);
    return lines.join("\n") + "\n";
  },
});
