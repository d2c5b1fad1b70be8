/**
 * Full-text search of the archive: BM25 over title, content and query
 * (title weighted highest), filters, a total count, and highlighted
 * snippets for the page of hits returned.
 * @module
 */
import { QuarryError } from "../../errors.ts";
import { stemmer } from "stemmer";
import {
  type MatchSplit,
  type ParsedQuery,
  planMatch,
  type QueryNode,
  SEARCH_FIELDS,
  type SearchField,
  STOP_WORDS,
} from "./query.ts";
import type { Sql, SqlValue } from "./sql.ts";
import type { DocumentSource, SearchHit, SearchOptions } from "./types.ts";

/** Ranking and presentation of search hits. */
export interface SearchConfig {
  /** BM25 weight of the title column. @default {3} */
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
  /**
   * Candidate budget. Ranking terms select candidates rarest first while
   * their document frequencies sum to at most this; commoner terms then only
   * add to the score of those candidates instead of making every document
   * that holds them a candidate. @default {200}
   */
  candidateBudget: number;
  /**
   * Above this many postings (the sum of the words' document frequencies)
   * the total of a plain word query is estimated instead of counted.
   * @default {50_000}
   */
  exactCountPostings: number;
  /** The budget grows to this many candidates per hit asked for (offset + limit). @default {10} */
  candidatesPerHit: number;
  /**
   * A term outside the budget found in more than this share of all documents
   * is left out of the score: its weight is small and reading its long
   * posting list is what costs. @default {0.2}
   */
  maxTermShare: number;
}

/** Defaults of {@linkcode SearchConfig}, tuned on SciFact (see bench/suite_archive.ts). */
export const DEFAULT_SEARCH_CONFIG: SearchConfig = {
  titleWeight: 3,
  contentWeight: 1,
  queryWeight: 0.5,
  snippetTokens: 24,
  highlight: ["**", "**"],
  maxLimit: 100,
  candidateBudget: 200,
  candidatesPerHit: 10,
  maxTermShare: 0.2,
  exactCountPostings: 50_000,
};

/** What the archive knows about its terms: how many documents hold each, and in all. */
export interface TermStats {
  /** Documents holding a query token (0 when absent). */
  docFreq(token: string): number;
  documents(): number;
}

/** Private-use characters mark matches first, so marks already in the text are not mistaken. */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const OPEN_ALL = /\uE000/g;
const CLOSE_ALL = /\uE001/g;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LIKE_SPECIAL = /[\\%_]/g;

/** A `documents` row as hits and listings read it. */
export interface HitRow {
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

/** SQL conditions (on `documents d`) for the filters of a search or a listing. */
export function filters(options: SearchOptions): { where: string[]; params: SqlValue[] } {
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

/**
 * Drops stop words from the ranking terms (unless nothing else would be
 * left) and repeats of one stem ("cell", "cells"): each adds cost and skews
 * BM25 toward the repeated word.
 */
export function refineQuery(query: ParsedQuery): ParsedQuery {
  const single = (n: QueryNode) => n.kind === "term" && n.tokens.length === 1 && !n.prefix;
  const content = query.should.filter((n) =>
    !(single(n) && STOP_WORDS.has((n as { tokens: string[] }).tokens[0]!))
  );
  const kept = content.length > 0 || query.must.length > 0 ? content : query.should;
  const stems = new Set<string>();
  const should = kept.filter((n) => {
    if (!single(n)) return true;
    const stem = stemmer((n as { tokens: string[] }).tokens[0]!);
    if (stems.has(stem)) return false;
    stems.add(stem);
    return true;
  });
  return { should, must: query.must, not: query.not };
}

function nodeFreq(node: QueryNode, docFreq: (token: string) => number): number {
  if (node.kind === "any") return node.of.reduce((sum, n) => sum + nodeFreq(n, docFreq), 0);
  if (node.prefix) return Number.POSITIVE_INFINITY;
  return Math.min(...node.tokens.map(docFreq));
}

/**
 * Splits ranking terms into those that select candidates (rarest first,
 * within the budget) and those that only score them; of the latter, terms in
 * more than `maxShare` of all documents are left out.
 */
export function splitByFrequency(
  nodes: QueryNode[],
  stats: TermStats,
  budget: number,
  maxShare = DEFAULT_SEARCH_CONFIG.maxTermShare,
): MatchSplit {
  const docFreq = (token: string) => stats.docFreq(token);
  const ordered = nodes.map((node, i) => ({ node, i, df: nodeFreq(node, docFreq) }))
    .sort((a, b) => a.df - b.df || a.i - b.i);
  const ceiling = maxShare * stats.documents();
  const split: MatchSplit = { select: [], rankOnly: [] };
  let sum = 0;
  for (const { node, df } of ordered) {
    if (split.select.length === 0 || sum + df <= budget) {
      split.select.push(node);
      sum += df;
    } else if (df <= ceiling) split.rankOnly.push(node);
  }
  return split;
}

/**
 * The number of documents holding any of the ranking words, estimated from
 * their document frequencies as if words occurred independently — or
 * undefined when counting exactly is cheap (few postings) or the query is
 * more than a list of words. Counting a union of long posting lists costs
 * more than ranking does.
 */
export function estimateTotal(
  query: ParsedQuery,
  stats: TermStats,
  exactPostings: number,
): number | undefined {
  if (query.must.length > 0) return undefined;
  const freqs: number[] = [];
  for (const node of query.should) {
    if (node.kind !== "term" || node.tokens.length !== 1 || node.prefix) return undefined;
    freqs.push(stats.docFreq(node.tokens[0]!));
  }
  if (freqs.reduce((a, b) => a + b, 0) <= exactPostings) return undefined;
  const n = stats.documents();
  const none = freqs.reduce((p, df) => p * (1 - Math.min(df, n) / n), 1);
  return Math.max(Math.max(...freqs), Math.round(n * (1 - none)));
}

/** Ranks a parsed query; returns hits without citations, and the total count. */
export function rankDocuments(
  sql: Sql,
  parsed: ParsedQuery,
  options: SearchOptions,
  config: SearchConfig = DEFAULT_SEARCH_CONFIG,
  stats?: TermStats,
): { hits: SearchHit[]; total: number; estimated: boolean; highlight?: string } {
  const fields = options.fields?.filter((f) => SEARCH_FIELDS.includes(f));
  const limit = Math.max(0, Math.min(options.limit ?? 10, config.maxLimit));
  const offset = Math.max(0, options.offset ?? 0);
  const query = refineQuery(parsed);
  const budget = Math.max(config.candidateBudget, config.candidatesPerHit * (offset + limit));
  const split = stats && query.must.length === 0
    ? splitByFrequency(query.should, stats, budget, config.maxTermShare)
    : undefined;
  const plan = planMatch(query, fields, split);
  if (plan === undefined) return { hits: [], total: 0, estimated: false };
  const { where, params } = filters(options);
  const join = where.length > 0 ? " JOIN documents d ON d.id = f.rowid" : "";
  const conditions = ["document_content MATCH ?", ...where].join(" AND ");
  // One statement: rank inside (only the page of hits leaves the subquery),
  // then read those few rows of `documents`.
  const ranked = limit === 0 ? [] : sql.all<HitRow & { score: number }>(
    `SELECT r.score, d.id, d.url, d.title, d.site, d.source, d.type, d.path, d.published_at,
            d.fetched_at
       FROM (SELECT f.rowid AS id, bm25(document_content, ?, ?, ?, 0) AS score
               FROM document_content f${join} WHERE ${conditions}
               ORDER BY score, f.rowid DESC LIMIT ? OFFSET ?) r
       JOIN documents d ON d.id = r.id ORDER BY r.score, r.id DESC`,
    config.titleWeight,
    config.contentWeight,
    config.queryWeight,
    plan.rank,
    ...params,
    limit,
    offset,
  );
  const estimate = where.length === 0 && query.not.length === 0 && !fields && stats
    ? estimateTotal(query, stats, config.exactCountPostings)
    : undefined;
  const total = options.count === false ? -1 : estimate ?? sql.get<{ n: number }>(
    `SELECT count(*) AS n FROM document_content f${join} WHERE ${conditions}`,
    plan.count,
    ...params,
  )?.n ?? 0;
  const hits = ranked.map((row): SearchHit => ({
    id: String(row.id),
    url: row.url,
    title: row.title,
    site: row.site,
    source: row.source,
    type: row.type,
    path: row.path,
    publishedAt: row.published_at,
    fetchedAt: row.fetched_at,
    score: -row.score,
    snippets: options.snippets === false ? {} : snippetsOf(sql, plan.highlight, row.id, config),
  }));
  return { hits, total, estimated: estimate !== undefined, highlight: plan.highlight };
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

/**
 * Sentences elsewhere in the archive that cite a document and match the
 * query (from the citation-context index), highlighted: what others say
 * about a hit, in the words searched for.
 */
export function citationMentions(
  sql: Sql,
  match: string,
  id: number,
  config: SearchConfig = DEFAULT_SEARCH_CONFIG,
  limit = 5,
): { from: string; context: string }[] {
  return sql.all<{ source_id: number; context: string }>(
    `SELECT c.source_id, highlight(citation_content, 0, ?, ?) AS context
       FROM citation_content JOIN citations c ON c.id = citation_content.rowid
      WHERE citation_content MATCH ? AND c.target_id = ? AND c.kind <> 'similar'
      ORDER BY rank LIMIT ?`,
    config.highlight[0],
    config.highlight[1],
    match,
    id,
    limit,
  ).map((r) => ({ from: String(r.source_id), context: r.context }));
}
