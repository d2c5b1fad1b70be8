/**
 * What the pipeline needs from the archive, declared here and implemented by
 * the stores (DESIGN §2): the memory of pages read before (validators for a
 * conditional re-fetch, the archived copy behind a 304, remembering a page),
 * and reading archived pages back for answers without the network.
 * @module
 */
import { blocksFromMarkdown } from "./extract/markdown_blocks.ts";
import type { Article, Block, Link, Validators } from "./types.ts";

/** What a first read keeps so a later 304 rebuilds the page exactly. */
export interface KeptPage {
  markdown: string;
  /** The cleaned article as HTML (`fetch --format html`), when the page was HTML. */
  html?: string;
  blocks: Block[];
  links: Link[];
  canonical?: string;
}

/** A document of the archive, as the pipeline reads it. */
export interface ArchivedPage {
  id: string;
  /** Web address; null for indexed files. */
  url: string | null;
  /** File path of an indexed file. */
  path: string | null;
  title: string;
  byline: string | null;
  site: string | null;
  lang: string | null;
  published: string | null;
  excerpt: string | null;
  text: string;
  /** Absent for indexed files and pages archived before it was kept. */
  kept?: KeptPage;
}

/** A page that was read, to remember. */
export interface PageToRemember {
  /** The URL as asked for. */
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  article: Article;
  /** Kind of document, archived with it. @default {"html"} */
  type?: "html" | "pdf";
  /** Validators of the response, for the next conditional request. */
  validators?: Validators;
  /** The question the page was read for. */
  query?: string;
  /** ISO date-time of the read. */
  fetchedAt: string;
}

/** Memory of pages read before; implemented over KV and the archive. */
export interface PageMemory {
  /** Validators of the URLs read before that sent some. */
  validators(urls: string[]): Promise<Map<string, Validators>>;
  /** The archived copy of a URL read before, when it is still there. */
  archived(url: string): Promise<ArchivedPage | undefined>;
  /** Archives a page and its validators; returns its archive id. */
  remember(page: PageToRemember): Promise<string>;
}

/** Reads archived pages back for answers without the network. */
export interface ArchiveReader {
  /** The archived pages that best match the query, best first. */
  search(query: string, limit: number): Promise<ArchivedPage[]>;
}

/**
 * The article of an archived page: exactly the one first read when the page
 * kept its Markdown, blocks and links; rebuilt from the text otherwise.
 */
export function articleFromArchived(page: ArchivedPage): Article {
  const kept = page.kept;
  return {
    title: page.title,
    byline: page.byline,
    site: page.site,
    lang: page.lang,
    published: page.published,
    excerpt: page.excerpt,
    text: page.text,
    markdown: kept?.markdown ?? page.text,
    blocks: kept?.blocks ?? blocksFromMarkdown(page.text),
    links: kept?.links ?? [],
    ...(kept?.html === undefined ? {} : { html: kept.html }),
    ...(kept?.canonical === undefined ? {} : { canonical: kept.canonical }),
  };
}
