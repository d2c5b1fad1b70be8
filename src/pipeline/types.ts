/**
 * Data shapes passed between pipeline stages.
 * @module
 */

/** Status of one page (DESIGN §4). */
export const PAGE_STATUSES = [
  "ok",
  "timeout",
  "http_error",
  "blocked",
  "captcha",
  "not_html",
  "too_large",
  "empty",
  "unreadable",
  "robots_disallowed",
  "private_address",
  "duplicate",
  "filtered",
  "not_modified",
] as const;

/** Status of one page. `not_modified` is internal: a 304 to a conditional request. */
export type PageStatus = typeof PAGE_STATUSES[number];

/** Validators kept from an earlier fetch, sent back as a conditional request. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** What fetching one URL produced. A failure is a value, never an exception. */
export interface FetchResult {
  /** The URL as asked for. */
  url: string;
  /** The URL after redirects (equal to `url` when there were none). */
  finalUrl: string;
  status: PageStatus;
  /** Human reason for any status but `ok`. */
  reason?: string;
  /** HTTP status of the last response, when there was one. */
  httpStatus?: number;
  /** Media type without parameters, e.g. `text/html`. */
  contentType?: string;
  /** Decoded body text (HTML or plain text) when status is `ok`. */
  body?: string;
  /** The body as bytes, for documents that are not text (PDF), when status is `ok`. */
  bytes?: Uint8Array;
  /** Charset used to decode the body. */
  charset?: string;
  /** Validators of the response, for a later conditional request. */
  validators?: Validators;
  /** Redirect hops followed, in order. */
  redirects: string[];
  elapsedMs: number;
}

/** A structural block of an article, in reading order. */
export interface Block {
  type: "heading" | "p" | "li" | "pre" | "td" | "blockquote";
  /** Heading level 1–6 for `heading`. */
  level?: number;
  text: string;
  /** 1-based page of a paged document (PDF) the block is on. */
  page?: number;
}

/** A link found in a page, absolute. */
export interface Link {
  url: string;
  text: string;
}

/** The readable part of a page. */
export interface Article {
  title: string;
  byline: string | null;
  site: string | null;
  lang: string | null;
  published: string | null;
  excerpt: string | null;
  /** Plain text, paragraphs separated by blank lines. */
  text: string;
  /** The same content as Markdown. */
  markdown: string;
  /** Headings, paragraphs, list items… for ranking. */
  blocks: Block[];
  links: Link[];
  /** The cleaned article as HTML, addresses absolute (HTML pages only). */
  html?: string;
  /** `<link rel=canonical>` of the page, absolute, when it has one. */
  canonical?: string;
}

/** An article with nothing in it (a page that could not be read), with what is known of it. */
export function emptyArticle(known: Partial<Article> = {}): Article {
  return {
    title: "",
    byline: null,
    site: null,
    lang: null,
    published: null,
    excerpt: null,
    text: "",
    markdown: "",
    blocks: [],
    links: [],
    ...known,
  };
}

/**
 * Extraction result: `ok` with an article, `empty` with a reason,
 * `too_large` when the page is over the extraction bounds (too many
 * elements), or `unreadable` (a document that could not be parsed: corrupt,
 * encrypted, or still parsing at its time bound). An `ok` result may carry a
 * reason too, e.g. a page cap that was hit.
 */
export interface ExtractResult {
  status: "ok" | "empty" | "too_large" | "unreadable";
  reason?: string;
  /** Which extractor produced the article: Readability, the fallback, plain text, or PDF. */
  extractor: "readability" | "fallback" | "text" | "pdf";
  article: Article;
}

/** One search result from an engine, before any page is fetched. */
export interface Candidate {
  url: string;
  title: string;
  snippet: string;
  engine: string;
  /** 1-based position in the engine's answer. */
  rank: number;
  published?: string;
  /** Every engine that returned this page and its rank there (rank fusion). */
  engines?: EngineRank[];
}

/** Where one engine ranked a result. */
export interface EngineRank {
  engine: string;
  rank: number;
}
