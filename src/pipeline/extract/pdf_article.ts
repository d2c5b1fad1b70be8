/**
 * A PDF's pages of lines → the article: running headers and footers dropped,
 * paragraphs and headings (by font size against the body's) with their page
 * numbers, text with form feeds between pages, Markdown with a
 * `<!-- page N -->` mark before each page, and the title when the metadata
 * has none: the first large line.
 * @module
 */
import type { Article, Block, Link } from "../types.ts";
import { dropFurniture } from "./pdf_furniture.ts";
import { type Line, type Paragraph, toParagraphs } from "./pdf_lines.ts";
import type { PdfMetadata } from "./pdf_meta.ts";

/** One page read: its lines and the links on it. */
export interface PageText {
  lines: Line[];
  links: Link[];
}

/** A line at least this many times the body size is a heading (and a title candidate). */
const HEADING_SIZE = 1.2;
/** Longest heading, in characters: longer large text is a paragraph. */
const MAX_HEADING_CHARS = 200;
/** An excerpt shorter than this is a label, not a summary. */
const MIN_EXCERPT_CHARS = 50;

/** The body font size: the size most characters are set in. */
function bodySize(pages: readonly Line[][]): number {
  const chars = new Map<number, number>();
  for (const line of pages.flat()) {
    const size = Math.round(line.size * 2) / 2;
    chars.set(size, (chars.get(size) ?? 0) + line.text.length);
  }
  let best = 0, most = -1;
  for (const [size, n] of chars) if (n > most) [best, most] = [size, n];
  return best;
}

function isHeading(p: Paragraph, body: number): boolean {
  return body > 0 && p.size >= HEADING_SIZE * body && p.lines <= 3 &&
    p.text.length <= MAX_HEADING_CHARS && /\p{L}/u.test(p.text);
}

/** Pages of lines → the article: blocks with page numbers, text, Markdown. */
/**
 * Builds the article of a PDF.
 *
 * @example
 * ```ts
 * const article = composePdf(pages, { title: null, byline: null, published: null, lang: null }, url);
 * ```
 */
export function composePdf(
  pages: readonly PageText[],
  meta: PdfMetadata,
  url: string,
): Article {
  const kept = dropFurniture(pages.map((p) => p.lines));
  const body = bodySize(kept);
  const paragraphs = kept.map(toParagraphs);
  const largest = Math.max(
    0,
    ...paragraphs.flat().filter((p) => isHeading(p, body)).map((p) => p.size),
  );
  const blocks: Block[] = [];
  const text: string[] = [];
  const markdown: string[] = [];
  for (const [i, page] of paragraphs.entries()) {
    const n = i + 1;
    const pageText: string[] = [];
    markdown.push(`<!-- page ${n} -->`);
    for (const p of page) {
      const heading = isHeading(p, body);
      const level = heading && p.size >= largest ? 1 : 2;
      blocks.push(
        heading
          ? { type: "heading", level, text: p.text, page: n }
          : { type: "p", text: p.text, page: n },
      );
      pageText.push(p.text);
      markdown.push(heading ? `${"#".repeat(level)} ${p.text}` : p.text);
    }
    text.push(pageText.join("\n\n"));
  }
  const firstLarge = blocks.find((b) => b.type === "heading" && b.page === 1)?.text ?? null;
  return {
    title: meta.title ?? firstLarge ?? fileName(url),
    byline: meta.byline,
    site: siteOf(url),
    lang: meta.lang,
    published: meta.published,
    excerpt: blocks.find((b) => b.type === "p" && b.text.length >= MIN_EXCERPT_CHARS)?.text ?? null,
    // Pages are separated by a form feed, as pdftotext does.
    text: text.join("\n\f\n").trim(),
    markdown: markdown.join("\n\n").trim(),
    blocks,
    links: dedupe(pages.flatMap((p) => p.links)),
  };
}

function dedupe(links: Link[]): Link[] {
  const seen = new Set<string>();
  return links.filter((l) => !seen.has(l.url) && seen.add(l.url));
}

/** Host name of the URL, or `null`. */
export function siteOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/** Last path segment of the URL: a title of last resort. */
export function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last) : "";
  } catch {
    return "";
  }
}
