/**
 * Full-text search of the archive: BM25 over title, content and query
 * (title weighted highest), filters, a total count, and highlighted
 * snippets for the page of hits returned.
 * @module
 */
import { QuarryError } from "../errors.ts";
import { type ParsedQuery, SEARCH_FIELDS, type SearchField, toFtsMatch } from "./archive_query.ts";
import type { Sql, SqlValue } from "./archive_sql.ts";
import type { DocumentSource, SearchHit, SearchOptions } from "./archive_types.ts";

/** Ranking and presentation of search hits. */
export interface SearchConfig {
  /** BM25 weight of the title column, tuned on SciFact. @default {2.5} */
  titleWeight: number;
  /** @default {1} */
  contentWeight: number;
  /** BM25 weight of the queries a page was read for. @default {0.5} */
  queryWeight: number;
  /** Tokens in a content snippet. @default {24} */
  snippetTokens: number;
  /** Marks around a matched word in snippets. @default {["**", "**"]} */
  highlight: [string, string];
  /** Largest page of hits. @default {100} */
  maxLimit: number;
}

/** Defaults of {@linkcode SearchConfig}. */
export const DEFAULT_SEARCH_CONFIG: SearchConfig = {
  titleWeight: 2.5,
  contentWeight: 1,
  queryWeight: 0.5,
  snippetTokens: 24,
  highlight: ["**", "**"],
  maxLimit: 100,
};

/** Private-use characters mark matches first, so marks already in the text are not mistaken. */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const OPEN_ALL = /\uE000/g;
const CLOSE_ALL = /\uE001/g;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LIKE_SPECIAL = /[\\%_]/g;

interface HitRow {
  id: number;
  url: string | null;
  title: string;
  site: string | null;
  source: DocumentSource;
  type: string;
  path: string | null;
  published_at: string | null;
  fetched_at: string;
}

/** An ISO date-time from a date option; a bare date `until` covers its whole day. */
export function normalizeDate(text: string, name: string, endOfDay = false): string {
  const value = DATE_ONLY.test(text) && endOfDay ? `${text}T23:59:59.999Z` : text;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new QuarryError("BAD_INPUT", `Cannot read --${name} "${text}" as a date`, {
      suggestions: ["Write a date like 2024-05-01 or 2024-05-01T12:00:00Z"],
    });
  }
  return date.toISOString();
}

function filters(options: SearchOptions): { where: string[]; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (options.site) {
    const site = options.site.toLowerCase().replace(/^www\./, "");
    where.push("(d.site = ? OR d.site LIKE ? ESCAPE '\\')");
    params.push(site, `%.${site.replace(LIKE_SPECIAL, "\\$&")}`);
  }
  if (options.source) where.push("d.source = ?"), params.push(options.source);
  if (options.type) where.push("d.type = ?"), params.push(options.type);
  if (options.since) {
    where.push("coalesce(d.published_at, d.fetched_at) >= ?");
    params.push(normalizeDate(options.since, "since"));
  }
  if (options.until) {
    where.push("coalesce(d.published_at, d.fetched_at) <= ?");
    params.push(normalizeDate(options.until, "until", true));
  }
  return { where, params };
}

/** Ranks a parsed query; returns hits without citations, and the total count. */
export function rankDocuments(
  sql: Sql,
  query: ParsedQuery,
  options: SearchOptions,
  config: SearchConfig = DEFAULT_SEARCH_CONFIG,
): { hits: SearchHit[]; total: number } {
  const fields = options.fields?.filter((f) => SEARCH_FIELDS.includes(f));
  const match = toFtsMatch(query, fields);
  if (match === undefined) return { hits: [], total: 0 };
  const limit = Math.max(0, Math.min(options.limit ?? 10, config.maxLimit));
  const offset = Math.max(0, options.offset ?? 0);
  const { where, params } = filters(options);
  const join = where.length > 0 ? " JOIN documents d ON d.id = f.rowid" : "";
  const conditions = ["document_content MATCH ?", ...where].join(" AND ");
  const ranked = limit === 0 ? [] : sql.all<{ id: number; score: number }>(
    `SELECT f.rowid AS id, bm25(document_content, ?, ?, ?) AS score
       FROM document_content f${join} WHERE ${conditions}
       ORDER BY score, f.rowid DESC LIMIT ? OFFSET ?`,
    config.titleWeight,
    config.contentWeight,
    config.queryWeight,
    match,
    ...params,
    limit,
    offset,
  );
  const total = options.count === false ? -1 : sql.get<{ n: number }>(
    `SELECT count(*) AS n FROM document_content f${join} WHERE ${conditions}`,
    match,
    ...params,
  )?.n ?? 0;
  if (ranked.length === 0) return { hits: [], total };
  const rows = new Map(
    sql.all<HitRow>(
      `SELECT id, url, title, site, source, type, path, published_at, fetched_at
         FROM documents WHERE id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(ranked.map((r) => r.id)),
    ).map((row) => [row.id, row]),
  );
  const hits: SearchHit[] = [];
  for (const { id, score } of ranked) {
    const row = rows.get(id);
    if (!row) continue;
    hits.push({
      id: String(id),
      url: row.url,
      title: row.title,
      site: row.site,
      source: row.source,
      type: row.type,
      path: row.path,
      publishedAt: row.published_at,
      fetchedAt: row.fetched_at,
      score: -score,
      snippets: snippetsOf(sql, match, id, config),
    });
  }
  return { hits, total };
}

function snippetsOf(
  sql: Sql,
  match: string,
  id: number,
  config: SearchConfig,
): Partial<Record<SearchField, string>> {
  const row = sql.get<Record<SearchField, string | null>>(
    `SELECT highlight(document_content, 0, ?, ?) AS title,
            snippet(document_content, 1, ?, ?, '…', ?) AS content,
            snippet(document_content, 2, ?, ?, '…', ?) AS query
       FROM document_content WHERE document_content MATCH ? AND rowid = ?`,
    OPEN,
    CLOSE,
    OPEN,
    CLOSE,
    config.snippetTokens,
    OPEN,
    CLOSE,
    config.snippetTokens,
    match,
    id,
  );
  const snippets: Partial<Record<SearchField, string>> = {};
  for (const field of SEARCH_FIELDS) {
    const text = row?.[field];
    if (text && text.includes(OPEN)) {
      snippets[field] = text.replace(OPEN_ALL, config.highlight[0]).replace(
        CLOSE_ALL,
        config.highlight[1],
      );
    }
  }
  return snippets;
}
