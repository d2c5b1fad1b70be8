/**
 * `quarry archive related <id|url>`: what a document cites, what cites it,
 * and what resembles it, to a depth.
 * @module
 */
import { z } from "zod";
import { QuarryError } from "../errors.ts";
import type { Envelope } from "../envelope.ts";
import { MAX_DEPTH, type RelatedResult, relatedResult } from "./archive_search.ts";
import { defineOp } from "./types.ts";

const input = z.object({
  id: z.string().trim().min(1).describe("Archive id of the document, or its URL or file path"),
  depth: z.number().int().min(1).max(MAX_DEPTH).default(1).describe(
    "Levels to follow: 1 for direct neighbours, 2 for theirs…",
  ),
  limit: z.number().int().min(1).max(1000).default(100).describe("Most related documents listed"),
});

/** The `archive_related` operation. */
export const archiveRelatedOp = defineOp({
  name: "archive_related",
  command: ["archive", "related"],
  summary: "Documents cited by, citing, or similar to an archived document",
  description:
    "Walk the citation graph of the local archive from one document (by archive id or URL): " +
    "the pages and reports it cites, those that cite it, and near-duplicates (similar text), " +
    "each with the sentence that cites it and the depth at which it was reached.",
  input,
  positionals: [{ field: "id" }],
  http: { method: "GET", path: "/archive/related" },
  mcp: {
    tool: "related_documents",
    title: "Related archived documents",
    annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  },
  async run(ctx, args): Promise<Envelope<RelatedResult>> {
    const started = ctx.now();
    const archive = await ctx.stores.archive();
    const found = archive.related(args.id, args.depth, args.limit);
    if (!found) {
      throw new QuarryError("NOT_FOUND", `No archived document "${args.id}"`, {
        suggestions: ["Find ids with `quarry archive search <words>`"],
      });
    }
    const { document } = found;
    return {
      success: true,
      command: "archive_related",
      results: found.related.map(relatedResult),
      metadata: {
        document: {
          id: document.id,
          title: document.title,
          url: document.url,
          path: document.path,
        },
        depth: args.depth,
        returned: found.related.length,
        elapsed_ms: ctx.now() - started,
      },
    };
  },
  render(envelope) {
    if (!envelope.success) return "";
    const doc = envelope.metadata.document as { id: string; title: string; url: string | null };
    const rows = envelope.results as RelatedResult[];
    const lines = [`# Related to #${doc.id} ${doc.title}${doc.url ? ` (${doc.url})` : ""}`, ""];
    if (rows.length === 0) lines.push("Nothing cites it, is cited by it, or resembles it.");
    for (const r of rows) {
      const name = r.title ?? r.url ?? "?";
      const id = r.id ? ` #${r.id}` : "";
      const context = r.context ? ` — “${r.context}”` : "";
      lines.push(
        `${"  ".repeat(r.depth - 1)}- ${r.relation.replace("_", " ")}: ${name}${id}${context}`,
      );
    }
    return lines.join("\n") + "\n";
  },
});
