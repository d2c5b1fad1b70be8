/// <reference lib="dom" />
/**
 * Extraction: a fetched body → the readable article, its metadata, blocks
 * for ranking, links and Markdown. Readability over linkedom first; when it
 * finds nothing or too little, a simpler extractor (STYLE §6); text and
 * Markdown bodies are read as they are.
 * @module
 */
// Deferred: evaluated on the first page extracted, not when a command starts.
import defer * as readability from "@mozilla/readability";
import { type Article, type Block, emptyArticle, type ExtractResult } from "../types.ts";
import { toBlocks, toSegments, toText } from "./blocks.ts";
import { fallbackRoot } from "./fallback.ts";
import { cleanArticle, trimHead, trimTail } from "./cleanup.ts";
import { findLead, prependLead } from "./lead.ts";
import { articleHtml } from "./html_out.ts";
import { collectLinks } from "./links.ts";
import { toMarkdown } from "./markdown.ts";
import { type PageMetadata, readMetadata, toIsoDate } from "./metadata.ts";
import { baseUrlOf, countScripts, parsePage, stripInert } from "./prepare.ts";
import { type BoundConfig, boundMarkup, capLines, DEFAULT_BOUND_CONFIG } from "./bound.ts";
import { textArticle } from "./text.ts";

/** Thresholds of the extraction stage. */
export interface ExtractConfig extends BoundConfig {
  /** Readability text shorter than this (characters) makes the fallback extractor try. */
  minReadabilityChars: number;
  /** The fallback's text replaces Readability's only when this many times longer. */
  fallbackRatio: number;
  /** A page with less text than this (characters) is `empty`. */
  emptyChars: number;
  /** Readability's own threshold: shorter candidates make it retry with looser rules. */
  charThreshold: number;
  /** Classes Readability keeps on elements (all others are stripped). */
  classesToPreserve: string[];
  /**
   * Refine Readability's article: drop the captions, date lines and widgets
   * (author boxes, share bars, "related" lists) it keeps, and put back the
   * lead paragraph it drops with the header; replace an excerpt that is a
   * label ("Contents") with a real paragraph. Off, text and excerpt are
   * Readability's.
   */
  refine: boolean;
}

/** Default thresholds. */
export const DEFAULT_EXTRACT_CONFIG: Readonly<ExtractConfig> = Object.freeze({
  minReadabilityChars: 250,
  fallbackRatio: 2,
  emptyChars: 80,
  charThreshold: 500,
  classesToPreserve: [],
  refine: true,
  ...DEFAULT_BOUND_CONFIG,
});

/** Options of {@linkcode extract}. */
export interface ExtractOptions extends Partial<ExtractConfig> {
  /**
   * Media type of the body (parameters are ignored). `text/plain`,
   * `text/markdown`, other non-markup `text/*` and JSON are read as text;
   * anything else as HTML.
   * @default {"text/html"}
   */
  contentType?: string;
  /** Pages of a PDF read at most. @default {300} */
  pdfMaxPages?: number;
}

/** Media types whose body is the article as it stands. */
const MARKDOWN_TYPES = new Set(["text/markdown", "text/x-markdown"]);
/** `text/*` but markup, and JSON: bodies read as they stand. */
const TEXT_TYPE_RE = /^(?:text\/(?!html|xml)[\w.+-]+|application\/(?:[\w.-]+\+)?json)$/;
/** An excerpt shorter than this is a label, not a summary. */
const MIN_EXCERPT_CHARS = 50;
const EMPTY_JS_REASON = "probably rendered by JavaScript";
const EMPTY_REASON = "the page has no readable text";
const FAILED_REASON = "the page could not be parsed";

/** Readability's article with its content as a DOM element. */
type ReadabilityArticle = NonNullable<ReturnType<readability.Readability<Element>["parse"]>>;

function runReadability(document: Document, config: ExtractConfig): ReadabilityArticle | null {
  try {
    return new readability.Readability<Element>(document, {
      charThreshold: config.charThreshold,
      classesToPreserve: config.classesToPreserve,
      // Classes tell captions and widgets apart (cleanArticle); skipping
      // Readability's class stripping also saves a pass over the article.
      keepClasses: true,
      // The element itself, not its HTML: we walk it without parsing again.
      serializer: (node) => node as Element,
    }).parse();
  } catch {
    return null; // A DOM Readability cannot handle is a page for the fallback.
  }
}

function nonEmpty(value: string | null | undefined): string | null {
  const s = value?.trim();
  return s ? s : null;
}

/** The first paragraph that reads as a summary, else the first paragraph. */
function firstParagraph(blocks: Block[]): string | null {
  const paragraphs = blocks.filter((b) => b.type === "p");
  return (paragraphs.find((b) => b.text.length >= MIN_EXCERPT_CHARS) ?? paragraphs[0])?.text ??
    null;
}

/** Builds the article from a content element and what is known about the page. */
function articleFrom(root: Element, meta: PageMetadata, urls: ExtractUrls): Article {
  const segments = toSegments(root);
  const blocks = toBlocks(segments);
  const article: Article = {
    title: meta.title ?? "",
    byline: meta.byline,
    site: meta.site,
    lang: meta.lang,
    published: toIsoDate(meta.published),
    excerpt: meta.excerpt ?? firstParagraph(blocks),
    text: toText(segments),
    markdown: toMarkdown(root),
    blocks,
    links: collectLinks(root, urls.pageUrl, urls.baseUrl),
    html: articleHtml(root, urls.baseUrl),
  };
  if (meta.canonical) article.canonical = meta.canonical;
  return article;
}

interface ExtractUrls {
  pageUrl: string;
  baseUrl: string;
}

/** Readability's metadata where it found any, ours elsewhere. */
function mergeMetadata(
  meta: PageMetadata,
  found: ReadabilityArticle,
  refine: boolean,
): PageMetadata {
  return {
    ...meta,
    title: nonEmpty(found.title) ?? meta.title,
    byline: nonEmpty(found.byline) ?? meta.byline,
    site: nonEmpty(found.siteName) ?? meta.site,
    published: nonEmpty(found.publishedTime) ?? meta.published,
    // With a description in the page, Readability's pick among them wins.
    // Without one, Readability takes the first <p>, which may be a label
    // ("Problems"); a longer paragraph from the refined blocks serves better.
    excerpt: meta.excerpt || !refine
      ? nonEmpty(found.excerpt) ?? meta.excerpt
      : longEnough(found.excerpt),
  };
}

function longEnough(excerpt: string | null | undefined): string | null {
  const s = nonEmpty(excerpt);
  return s && s.length >= MIN_EXCERPT_CHARS ? s : null;
}

function pageUrlOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return "http://invalid/"; // Links then resolve nowhere useful and are dropped.
  }
}

/**
 * Extracts the article of a page. Never throws: a page without content comes
 * back with status `empty` and a reason, and still carries its title.
 *
 * @example
 * ```ts
 * const { status, article } = extract(html, "https://example.com/post");
 * if (status === "ok") console.log(article.title, article.text.length);
 * ```
 */
export function extract(body: string, url: string, options: ExtractOptions = {}): ExtractResult {
  const { contentType, pdfMaxPages: _, ...overrides } = options;
  const config: ExtractConfig = { ...DEFAULT_EXTRACT_CONFIG, ...overrides };
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (TEXT_TYPE_RE.test(type)) {
    const article = textArticle(capLines(body, config.maxLineChars), MARKDOWN_TYPES.has(type));
    if (article.text.length >= config.emptyChars) {
      return { status: "ok", extractor: "text", article };
    }
    return { status: "empty", reason: EMPTY_REASON, extractor: "text", article };
  }
  try {
    return extractHtml(body, url, config);
  } catch {
    // A DOM the parser or a library cannot handle: one page, not the batch.
    return {
      status: "unreadable",
      reason: FAILED_REASON,
      extractor: "fallback",
      article: emptyArticle(),
    };
  }
}

/** The HTML path: Readability, refined; the fallback when it finds too little. */
function extractHtml(body: string, url: string, config: ExtractConfig): ExtractResult {
  const pageUrl = pageUrlOf(url);
  const bounded = boundMarkup(stripInert(body), config);
  if (!bounded.ok) {
    const reason = `the page has over ${config.maxElements} elements`;
    return { status: "too_large", reason, extractor: "fallback", article: emptyArticle() };
  }
  const html = bounded.html;
  const urls: ExtractUrls = { pageUrl, baseUrl: baseUrlOf(html, pageUrl) };
  const { document } = parsePage(html, urls.pageUrl, urls.baseUrl);
  const meta = readMetadata(document, urls.baseUrl);
  const lead = config.refine ? findLead(document) : null;
  const found = runReadability(document, config);
  if (found?.content) {
    if (config.refine) {
      cleanArticle(found.content);
      trimTail(found.content);
      trimHead(found.content);
      if (lead) prependLead(found.content, lead);
    }
    const article = articleFrom(found.content, mergeMetadata(meta, found, config.refine), urls);
    article.excerpt ??= nonEmpty(found.excerpt);
    if (article.text.length >= config.minReadabilityChars) {
      return { status: "ok", extractor: "readability", article };
    }
    const fallback = fallbackArticle(html, meta, urls);
    if (fallback.text.length < config.fallbackRatio * article.text.length) {
      return withStatus(article, "readability", config, body);
    }
    return withStatus(fallback, "fallback", config, body);
  }
  return withStatus(fallbackArticle(html, meta, urls), "fallback", config, body);
}

/** The fallback extractor's article, from a fresh parse (Readability mutated the first). */
function fallbackArticle(html: string, meta: PageMetadata, urls: ExtractUrls): Article {
  const { document } = parsePage(html, urls.pageUrl, urls.baseUrl);
  return articleFrom(fallbackRoot(document), meta, urls);
}

function withStatus(
  article: Article,
  extractor: ExtractResult["extractor"],
  config: ExtractConfig,
  rawHtml: string,
): ExtractResult {
  if (article.text.length >= config.emptyChars) return { status: "ok", extractor, article };
  const reason = countScripts(rawHtml) > 0 ? EMPTY_JS_REASON : EMPTY_REASON;
  return { status: "empty", reason, extractor, article };
}

/**
 * Extracts any body: bytes are a PDF (the only kind fetched as bytes), text
 * goes to {@linkcode extract}. Never throws.
 *
 * @example
 * ```ts
 * const result = await extractBody(pdfBytes, "https://example.org/a.pdf");
 * ```
 */
export async function extractBody(
  body: string | Uint8Array,
  url: string,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  if (typeof body === "string") return extract(body, url, options);
  // pdf.js is large: loaded on the first PDF, not at every start.
  const { extractPdf } = await import("./pdf.ts");
  return await extractPdf(
    body,
    url,
    options.pdfMaxPages === undefined ? {} : { maxPages: options.pdfMaxPages },
  );
}
