/**
 * `quarry archive show <id>`: one archived document with its text.
 * @module
 */
import { z } from "zod";
import { QuarryError } from "../errors.ts";
import type { Envelope } from "../envelope.ts";
import { pageWindow } from "./fetch.ts";
import { maxField, startField } from "./schemas.ts";
import { defineOp } from "./types.ts";

const DIGITS = /^\d+$/;

const input = z.object({
  id: z.string().trim().min(1).describe("Archive id of the document, or its URL or file path"),
  start: startField,
  max: maxField,
});

/** An archived document in the envelope. */
export interface ShownDocument {
  id: string;
  url: string | null;
  title: string;
  byline: string | null;
  site: string | null;
  lang: string | null;
  published_at: string | null;
  fetched_at: string;
  source: string;
  type: string;
  path: string | null;
  queries: string[];
  metadata: Record<string, unknown>;
  content: string;
  total_chars: number;
  next_start: number | null;
}

/** The `archive_show` operation. */
export const archiveShowOp = defineOp({
  name: "archive_show",
  command: ["archive", "show"],
  summary: "Show one archived document and its text",
  description:
    "Return an archived document by id (or URL, or file path): its metadata, the queries it " +
    "was read for, and its text, paged with start/max for long documents.",
  input,
  positionals: [{ field: "id" }],
  http: { method: "GET", path: "/archive/document" },
  async run(ctx, args): Promise<Envelope<ShownDocument>> {
    const archive = await ctx.stores.archive();
    const id = archive.resolve(args.id);
    const doc = id === undefined ? undefined : archive.get(id);
    if (!doc) {
      const parts = args.id.split(/\s+/);
      if (parts.length > 1 && parts.every((p) => DIGITS.test(p) || archive.resolve(p))) {
        throw new QuarryError(
          "BAD_INPUT",
          `archive show takes one document, and "${args.id}" names ${parts.length}`,
          {
            suggestions: parts.slice(0, 3).map((p) => `Run \`quarry archive show ${p}\``),
          },
        );
      }
      throw new QuarryError("NOT_FOUND", `No archived document "${args.id}"`, {
        suggestions: ["Find ids with `quarry archive search <words>`"],
      });
    }
    const window = pageWindow(doc.content, args.start, args.max);
    return {
      success: true,
      command: "archive_show",
      results: [{
        id: doc.id,
        url: doc.url,
        title: doc.title,
        byline: doc.byline,
        site: doc.site,
        lang: doc.lang,
        published_at: doc.publishedAt,
        fetched_at: doc.fetchedAt,
        source: doc.source,
        type: doc.type,
        path: doc.path,
        queries: doc.query ? doc.query.split("\n") : [],
        metadata: doc.metadata,
        content: window.content,
        total_chars: window.total,
        next_start: window.next,
      }],
      metadata: { returned: 1 },
    };
  },
  render(envelope) {
    const doc = (envelope.results as ShownDocument[] | undefined)?.[0];
    if (!doc) return "";
    const facts = [
      doc.url ?? doc.path,
      doc.byline,
      doc.published_at?.slice(0, 10),
      `${doc.source}/${doc.type}`,
      `read ${doc.fetched_at.slice(0, 10)}`,
    ].filter(Boolean);
    const lines = [`# ${doc.title || "(untitled)"}`, "", facts.join(" · "), "", doc.content];
    if (doc.next_start !== null) {
      lines.push(
        "",
        `… ${doc.total_chars - doc.next_start} more characters (--start ${doc.next_start})`,
      );
    }
    return lines.join("\n") + "\n";
  },
});
