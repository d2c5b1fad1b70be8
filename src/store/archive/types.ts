/**
 * Shapes of the archive's API: what goes in, what comes out.
 * @module
 */
import type { SearchField } from "./query.ts";
import type { GraphFormat } from "../graph/export.ts";
import type { CitationKind, Relation } from "../graph/walk.ts";

/** Where a document came from. */
export const DOCUMENT_SOURCES = ["web", "research", "url-content", "file"] as const;

/** Where a document came from. */
export type DocumentSource = typeof DOCUMENT_SOURCES[number];

/** A document to archive. Web documents are matched by canonical URL, files by path. */
export interface DocumentInput {
  url?: string | null;
  title: string;
  /** Plain text (or Markdown) of the document. */
  content: string;
  /** The query it was read for; queries accumulate over re-fetches. */
  query?: string | null;
  byline?: string | null;
  site?: string | null;
  lang?: string | null;
  publishedAt?: string | null;
  /** ISO date-time it was read. */
  fetchedAt: string;
  source: DocumentSource;
  /** Kind of content: `html`, `markdown`, `text`, `json`, `report`… @default {"html"} */
  type?: string;
  /** Absolute file path, for indexed files. */
  path?: string | null;
  metadata?: Record<string, unknown>;
}

/** What upserting one document did. */
export interface UpsertOutcome {
  id: string;
  status: "added" | "updated" | "unchanged";
}

/** An archived document with its text. */
export interface ArchivedDocument {
  id: string;
  url: string | null;
  canonicalUrl: string | null;
  title: string;
  byline: string | null;
  site: string | null;
  lang: string | null;
  publishedAt: string | null;
  fetchedAt: string;
  source: DocumentSource;
  type: string;
  path: string | null;
  contentHash: string;
  metadata: Record<string, unknown>;
  content: string;
  query: string;
}

/** A citation to store. The target is a URL, an archived document, or both. */
export interface CitationInput {
  sourceId: string;
  targetUrl?: string | null;
  targetId?: string | null;
  context: string;
  /** 1.0 for an explicit citation; below 1 for an inferred one. */
  confidence: number;
  kind: CitationKind;
}

/** Options of a search. Dates are ISO strings compared with the document's date. */
export interface SearchOptions {
  /** @default {10} */
  limit?: number;
  /** @default {0} */
  offset?: number;
  /** Host name; its subdomains match too. */
  site?: string;
  source?: string;
  type?: string;
  /** Documents published (else fetched) at or after this date. */
  since?: string;
  /** Documents published (else fetched) before or at this date. */
  until?: string;
  /** Columns searched. @default {["title","content","query"]} */
  fields?: SearchField[];
  /** Also match substrings and small misspellings of the query's words. */
  fuzzy?: boolean;
  /** Attach what each hit cites and what cites it. */
  citations?: boolean;
  /** Levels of citations attached. @default {1} */
  depth?: number;
  /** Count every match (one more query). @default {true} */
  count?: boolean;
  /** Highlighted snippets of each hit. @default {true} */
  snippets?: boolean;
}

/** A neighbour in the citation graph, with what is known of it. */
export interface RelatedDocument {
  /** Null for a cited URL that is not archived. */
  id: string | null;
  url: string | null;
  title: string | null;
  relation: Relation;
  kind: CitationKind;
  context: string;
  confidence: number;
  depth: number;
  /** Document it was reached from. */
  from: string;
}

/** One search hit. */
export interface SearchHit {
  id: string;
  url: string | null;
  title: string;
  site: string | null;
  source: DocumentSource;
  type: string;
  path: string | null;
  publishedAt: string | null;
  fetchedAt: string;
  /** BM25 relevance, higher is better. */
  score: number;
  /** Highlighted text of each field that matched (`**word**`). */
  snippets: Partial<Record<SearchField, string>>;
  cites?: RelatedDocument[];
  citedBy?: RelatedDocument[];
  /** Sentences of citing documents that match the query, highlighted (with `citations`). */
  mentions?: { from: string; context: string }[];
}

/** A page of search hits. */
export interface SearchResult {
  hits: SearchHit[];
  /** Every matching document, or -1 when not counted. */
  total: number;
  /** True when `total` was estimated from word frequencies (large archives). */
  totalEstimated: boolean;
  /** Words added by `fuzzy`, each with the query word it stands for. */
  expansions: Record<string, string[]>;
}

/** Counts and sizes of an archive. */
export interface ArchiveStats {
  documents: number;
  bySource: Record<string, number>;
  citations: number;
  byKind: Record<string, number>;
  resolvedCitations: number;
  queries: number;
  indexedFiles: number;
  oldest: string | null;
  newest: string | null;
  bytes: number;
}

/** Options of a graph export. */
export interface ExportOptions {
  /** Include cited URLs that are not archived as nodes. @default {false} */
  external?: boolean;
  /** Include `link` edges of web pages, not only citations and similarity. @default {true} */
  links?: boolean;
}

/** Re-exported for callers of the archive. */
export type { CitationKind, GraphFormat, SearchField };
