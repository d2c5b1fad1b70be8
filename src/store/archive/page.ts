/**
 * Archives a page Quarry read: its article as a `web` document, and its
 * links as `link` citations with the sentence around each link.
 * @module
 */
import type { ArchivedPage, KeptPage } from "../../pipeline/memory.ts";
import type { Article, Block, Link } from "../../pipeline/types.ts";
import { canonicalUrl } from "../../text/url.ts";
import type { Archive } from "./archive.ts";
import type { ArchivedDocument, DocumentSource } from "./types.ts";
import { extractCitations } from "../graph/citations.ts";

/** A page that was read. */
export interface ReadPage {
  /** The URL as asked for. */
  url: string;
  /** The URL after redirects; the document is filed under it. */
  finalUrl: string;
  article: Article;
  /** The query the page was read for, when there was one. */
  query?: string;
  /** ISO date-time the page was read. */
  fetchedAt: string;
  /** @default {"web"} */
  source?: DocumentSource;
  /** Kind of document: `html` for web pages, `pdf`. @default {"html"} */
  type?: "html" | "pdf";
}

/** Most links of one page stored as citations (navigation menus can hold hundreds). */
const MAX_LINKS = 200;

/**
 * Stores a read page in one transaction and returns its archive id. A page
 * read again updates its row (same canonical URL) and its links; an
 * unchanged page is left as it is.
 *
 * @example
 * ```ts
 * const id = archivePage(archive, { url, finalUrl, article, query: "tides", fetchedAt });
 * ```
 */
export function archivePage(archive: Archive, page: ReadPage): string {
  const { article } = page;
  return archive.transaction(() => {
    const [outcome] = archive.upsertDocuments([{
      url: page.finalUrl,
      title: article.title,
      content: article.text,
      query: page.query ?? null,
      byline: article.byline,
      lang: article.lang,
      publishedAt: article.published,
      fetchedAt: page.fetchedAt,
      source: page.source ?? "web",
      type: page.type ?? "html",
      metadata: {
        ...(article.site ? { site_name: article.site } : {}),
        ...(article.excerpt ? { excerpt: article.excerpt } : {}),
        ...(page.url !== page.finalUrl ? { requested_url: page.url } : {}),
      },
    }]);
    const id = outcome!.id;
    // Kept even when the text is unchanged, so a page archived before it was kept gets it.
    archive.keepPage(id, { ...keptOf(article) });
    if (outcome!.status === "unchanged") return id;
    const self = canonicalUrl(page.finalUrl);
    const contexts = new Map(
      extractCitations(article.markdown, page.finalUrl).map((c) => [c.url, c.context]),
    );
    const seen = new Set<string>([self]);
    const citations = [];
    for (const link of article.links) {
      const target = canonicalUrl(link.url);
      if (seen.has(target) || !/^https?:/.test(target)) continue;
      seen.add(target);
      citations.push({
        sourceId: id,
        targetUrl: target,
        context: contexts.get(target) || link.text,
        confidence: 1,
        kind: "link" as const,
      });
      if (citations.length >= MAX_LINKS) break;
    }
    archive.replaceCitations(id, ["link"], citations);
    return id;
  });
}

/** The row of `document_pages`: the article's fields the documents table does not hold as read. */
interface KeptRow extends KeptPage {
  site: string | null;
  published: string | null;
  excerpt: string | null;
}

function keptOf(article: Article): KeptRow {
  return {
    markdown: article.markdown,
    blocks: article.blocks,
    links: article.links,
    ...(article.html === undefined ? {} : { html: article.html }),
    ...(article.canonical === undefined ? {} : { canonical: article.canonical }),
    site: article.site,
    published: article.published,
    excerpt: article.excerpt,
  };
}

function isKeptRow(
  value: Record<string, unknown> | undefined,
): value is Record<string, unknown> & KeptRow {
  return !!value && typeof value.markdown === "string" && Array.isArray(value.blocks) &&
    Array.isArray(value.links);
}

/**
 * An archived document as the pipeline reads it; a web page archived with
 * {@linkcode archivePage} comes back exactly as it was first read.
 */
export function archivedPage(archive: Archive, doc: ArchivedDocument): ArchivedPage {
  const meta = doc.metadata as { site_name?: string; excerpt?: string };
  const base: ArchivedPage = {
    id: doc.id,
    url: doc.url,
    path: doc.path,
    title: doc.title,
    byline: doc.byline,
    site: doc.site ?? meta.site_name ?? null,
    lang: doc.lang,
    published: doc.publishedAt,
    excerpt: meta.excerpt ?? null,
    text: doc.content,
  };
  const row = archive.keptPage(doc.id);
  if (!isKeptRow(row)) return base;
  return {
    ...base,
    site: row.site ?? null,
    published: row.published ?? null,
    excerpt: row.excerpt ?? null,
    kept: {
      markdown: row.markdown,
      blocks: row.blocks as Block[],
      links: row.links as Link[],
      ...(typeof row.html === "string" ? { html: row.html } : {}),
      ...(typeof row.canonical === "string" ? { canonical: row.canonical } : {}),
    },
  };
}
