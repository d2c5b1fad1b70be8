/**
 * Listing the archive without words: the documents that pass the filters,
 * newest first, a page at a time. `archive search --source file` with no
 * words and the MCP resource listing both read it.
 * @module
 */
import { filters, type HitRow } from "./search.ts";
import type { Sql } from "./sql.ts";
import type { SearchHit, SearchOptions } from "./types.ts";

/** What "newest" means for a listing. */
export type ListOrder = "date" | "read";

/** Options of {@linkcode listDocuments}: the search filters plus the order. */
export interface ListOptions
  extends Pick<SearchOptions, "limit" | "offset" | "site" | "source" | "type" | "since" | "until"> {
  /**
   * `date`: published (else read) date, the date `since`/`until` filter on;
   * `read`: when Quarry last read the document. @default {"date"}
   */
  order?: ListOrder;
}

/** Largest page of a listing. */
export const MAX_LIST_LIMIT = 100;

const ORDER_BY: Record<ListOrder, string> = {
  date: "coalesce(d.published_at, d.fetched_at) DESC, d.id DESC",
  read: "d.fetched_at DESC, d.id DESC",
};

/** The documents that pass the filters, newest first, and how many pass in all. */
export function listDocuments(
  sql: Sql,
  options: ListOptions = {},
): { hits: SearchHit[]; total: number } {
  const limit = Math.max(0, Math.min(options.limit ?? 10, MAX_LIST_LIMIT));
  const offset = Math.max(0, options.offset ?? 0);
  const { where, params } = filters(options);
  const condition = where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "";
  const rows = limit === 0 ? [] : sql.all<HitRow>(
    `SELECT d.id, d.url, d.title, d.site, d.source, d.type, d.path, d.published_at, d.fetched_at
       FROM documents d${condition} ORDER BY ${ORDER_BY[options.order ?? "date"]}
      LIMIT ? OFFSET ?`,
    ...params,
    limit,
    offset,
  );
  const total =
    sql.get<{ n: number }>(`SELECT count(*) AS n FROM documents d${condition}`, ...params)
      ?.n ?? 0;
  return {
    hits: rows.map((row): SearchHit => ({
      id: String(row.id),
      url: row.url,
      title: row.title,
      site: row.site,
      source: row.source,
      type: row.type,
      path: row.path,
      publishedAt: row.published_at,
      fetchedAt: row.fetched_at,
      score: 0,
      snippets: {},
    })),
    total,
  };
}
