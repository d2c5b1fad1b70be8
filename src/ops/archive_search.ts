/**
 * `quarry archive search <query>`: full-text search of everything Quarry
 * read and indexed, offline.
 * @module
 */
import { z } from "zod";
import type { Envelope } from "../envelope.ts";
import type { RelatedDocument, SearchHit } from "../store/archive/archive.ts";
import { SEARCH_FIELDS } from "../store/archive/query.ts";
import { DOCUMENT_SOURCES } from "../store/archive/types.ts";
import { defineOp } from "./types.ts";

/** Most hits one call returns. */
export const MAX_ARCHIVE_LIMIT = 100;
/** Deepest citation walk. */
export const MAX_DEPTH = 5;

const input = z.object({
  query: z.string().max(100_000).default("").describe(
    'What to look for. Words rank (any may match); "a phrase" and +word must match; ' +
      "-word must not; a OR b; prefix*",
  ),
  limit: z.number().int().min(1).max(MAX_ARCHIVE_LIMIT).default(10).describe("Hits to return"),
  offset: z.number().int().min(0).default(0).describe("Hits to skip (paging)"),
  site: z.string().trim().min(1).optional().describe("Only this site (host name; subdomains too)"),
  source: z.enum(DOCUMENT_SOURCES).optional().describe(
    "Only documents from this source: web pages read, research reports, url-content, files",
  ),
  type: z.string().trim().min(1).optional().describe(
    "Only this kind of document (html, pdf, markdown, text, json, report…)",
  ),
  since: z.string().trim().min(1).optional().describe(
    "Only documents published (else read) on or after this date, e.g. 2024-01-31",
  ),
  until: z.string().trim().min(1).optional().describe(
    "Only documents published (else read) on or before this date",
  ),
  fields: z.array(z.enum(SEARCH_FIELDS)).optional().describe(
    "Fields searched: title, content, query (the question a page was read for); default all",
  ),
  fuzzy: z.boolean().default(false).describe(
    "Also match substrings and small misspellings of the words",
  ),
  citations: z.boolean().default(false).describe(
    "Attach to each hit the documents it cites and those citing it",
  ),
  depth: z.number().int().min(1).max(MAX_DEPTH).default(1).describe(
    "Levels of citations attached with --citations",
  ),
});

/** A citation neighbour in the envelope. */
export interface RelatedResult {
  id: string | null;
  url: string | null;
  title: string | null;
  relation: string;
  kind: string;
  context: string;
  confidence: number;
  depth: number;
  from: string;
}

/** One hit in the envelope. */
export interface ArchiveHitResult {
  id: string;
  archive_id: string;
  url: string | null;
  title: string;
  site: string | null;
  source: string;
  type: string;
  path: string | null;
  published_at: string | null;
  fetched_at: string;
  rank: number;
  score: number;
  snippets: Record<string, string>;
  cites?: RelatedResult[];
  cited_by?: RelatedResult[];
  /** Citing sentences that match the query, highlighted. */
  mentions?: { from: string; context: string }[];
}

/** The envelope shape of a related document. */
export function relatedResult(r: RelatedDocument): RelatedResult {
  return {
    id: r.id,
    url: r.url,
    title: r.title,
    relation: r.relation,
    kind: r.kind,
    context: r.context,
    confidence: r.confidence,
    depth: r.depth,
    from: r.from,
  };
}

function hitResult(hit: SearchHit, rank: number): ArchiveHitResult {
  return {
    id: hit.id,
    archive_id: hit.id,
    url: hit.url,
    title: hit.title,
    site: hit.site,
    source: hit.source,
    type: hit.type,
    path: hit.path,
    published_at: hit.publishedAt,
    fetched_at: hit.fetchedAt,
    rank,
    score: Number(hit.score.toPrecision(4)),
    snippets: hit.snippets,
    ...(hit.cites ? { cites: hit.cites.map(relatedResult) } : {}),
    ...(hit.citedBy ? { cited_by: hit.citedBy.map(relatedResult) } : {}),
    ...(hit.mentions ? { mentions: hit.mentions } : {}),
  };
}

function renderNeighbours(label: string, list: RelatedResult[] | undefined): string[] {
  if (!list || list.length === 0) return [];
  return [
    `${label}:`,
    ...list.map((r) =>
      `${"  ".repeat(r.depth)}- ${r.title ?? r.url ?? "?"}${r.id ? ` (#${r.id})` : ""}${
        r.context ? ` — “${r.context}”` : ""
      }`
    ),
  ];
}

/** The `archive_search` operation. */
export const archiveSearchOp = defineOp({
  name: "archive_search",
  command: ["archive", "search"],
  summary: "Search everything Quarry has read and indexed, offline",
  description:
    "Full-text search (BM25, title weighted) over the local archive: every page Quarry read, " +
    "research reports and indexed folders. Works offline. Returns ranked hits with " +
    "highlighted snippets per matching field, the total count, and optionally what each hit " +
    "cites and is cited by. Filters: site, source, type, since/until, fields. Use " +
    "related_documents to follow citations from a hit.",
  input,
  positionals: [{ field: "query" }],
  http: { method: "GET", path: "/archive/search" },
  mcp: {
    tool: "search_archive",
    title: "Search the local archive",
    annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  },
  async run(ctx, args): Promise<Envelope<ArchiveHitResult>> {
    const started = ctx.now();
    const archive = await ctx.stores.archive();
    const result = archive.search(args.query, {
      limit: args.limit,
      offset: args.offset,
      fuzzy: args.fuzzy,
      citations: args.citations,
      depth: args.depth,
      ...(args.site ? { site: args.site } : {}),
      ...(args.source ? { source: args.source } : {}),
      ...(args.type ? { type: args.type } : {}),
      ...(args.since ? { since: args.since } : {}),
      ...(args.until ? { until: args.until } : {}),
      ...(args.fields ? { fields: args.fields } : {}),
    });
    const results = result.hits.map((hit, i) => hitResult(hit, args.offset + i + 1));
    return {
      success: true,
      command: "archive_search",
      query: args.query,
      results,
      metadata: {
        total: result.total,
        total_available: result.total,
        ...(result.totalEstimated ? { total_estimated: true } : {}),
        returned: results.length,
        offset: args.offset,
        limit: args.limit,
        ...(args.fuzzy ? { expansions: result.expansions } : {}),
        elapsed_ms: ctx.now() - started,
      },
    };
  },
  render(envelope) {
    if (!envelope.success) return "";
    const hits = envelope.results as ArchiveHitResult[];
    const total = envelope.metadata.total as number;
    if (hits.length === 0) return `No archived document matches "${envelope.query ?? ""}".\n`;
    const about = envelope.metadata.total_estimated ? "about " : "";
    const lines = [`${hits.length} of ${about}${total} archived documents\n`];
    for (const hit of hits) {
      const where = hit.url ?? hit.path ?? "";
      const when = (hit.published_at ?? hit.fetched_at).slice(0, 10);
      lines.push(`## ${hit.rank}. ${hit.snippets.title ?? (hit.title || where)}`, "");
      lines.push(`${where} · ${hit.source} · ${when} · id ${hit.id} · score ${hit.score}`);
      if (hit.snippets.content) lines.push("", `> ${hit.snippets.content.replace(/\n+/g, " ")}`);
      if (hit.snippets.query) lines.push("", `Read for: ${hit.snippets.query}`);
      const graph = [
        ...renderNeighbours("Cites", hit.cites),
        ...renderNeighbours("Cited by", hit.cited_by),
      ];
      for (const m of hit.mentions ?? []) graph.push(`Cited as (#${m.from}): “${m.context}”`);
      if (graph.length > 0) lines.push("", ...graph);
      lines.push("");
    }
    return lines.join("\n");
  },
});
