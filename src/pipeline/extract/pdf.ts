/**
 * The PDF extractor: pdf.js (through `unpdf`, its serverless build, which
 * runs without a worker of its own, a canvas or file access) reads the text
 * layer page by page; lines become paragraphs with their page number, so an
 * excerpt can cite its page; running headers, footers and page numbers are
 * dropped; metadata comes from the info dictionary and XMP; links from the
 * link annotations. Bad documents get a status: `unreadable` (encrypted,
 * corrupt) or `empty` (no text layer). Parsing is CPU work: servers run it in
 * the extraction workers (`pool.ts`).
 * @module
 */
import { getDocumentProxy } from "unpdf";
import type { Article, Block, ExtractResult, Link } from "../types.ts";
import { dropFurniture } from "./pdf_furniture.ts";
import { type Line, type Paragraph, type TextRun, toLines, toParagraphs } from "./pdf_lines.ts";
import { type PdfMetadataSource, readPdfMetadata } from "./pdf_meta.ts";

/** Limits and thresholds of the PDF extractor. */
export interface PdfConfig {
  /** Pages read at most; the rest is left out and the result says so. @default {300} */
  maxPages: number;
  /**
   * Fewer non-blank characters than this is `empty` (no text layer). Low: a
   * short notice is still a document's text. @default {10}
   */
  emptyChars: number;
}

/** Default PDF limits. */
export const DEFAULT_PDF_CONFIG: Readonly<PdfConfig> = Object.freeze({
  maxPages: 300,
  emptyChars: 10,
});

/** What a PDF starts with (a few writers put junk before it; pdf.js looks in the first 1 KiB). */
const MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const MAGIC_WINDOW = 1024;
/** A line at least this many times the body size is a heading (and a title candidate). */
const HEADING_SIZE = 1.2;
/** Longest heading, in characters: longer large text is a paragraph. */
const MAX_HEADING_CHARS = 200;
const NO_TEXT_REASON = "no text layer (scanned pages?)";

/** The pdf.js text item and link annotation, as far as they are read here. */
type Item = TextRun | { type: string };
interface Annotation {
  subtype?: string;
  url?: string;
  rect?: number[];
}

/** Whether bytes are a PDF: `%PDF-` within the first KiB. */
export function isPdfBytes(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, MAGIC_WINDOW) - MAGIC.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < MAGIC.length; j++) if (bytes[i + j] !== MAGIC[j]) continue outer;
    return true;
  }
  return false;
}

/** One page read: its lines and the links on it. */
interface PageText {
  lines: Line[];
  runs: TextRun[];
  links: Link[];
}

/**
 * Extracts the text of a PDF with page numbers. Never throws.
 *
 * @example
 * ```ts
 * const result = await extractPdf(bytes, "https://example.org/paper.pdf");
 * result.article.blocks[0]; // { type: "heading", level: 1, text: "…", page: 1 }
 * ```
 */
export async function extractPdf(
  bytes: Uint8Array,
  url: string,
  options: Partial<PdfConfig> = {},
): Promise<ExtractResult> {
  const config = { ...DEFAULT_PDF_CONFIG, ...options };
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js may detach the buffer it is given: hand it a copy.
    doc = await getDocumentProxy(bytes.slice(), {
      verbosity: 0,
      useSystemFonts: false,
      stopAtErrors: false,
    });
  } catch (error) {
    return unreadable(error, url);
  }
  try {
    const total = doc.numPages;
    const count = Math.min(total, config.maxPages);
    const pages: PageText[] = [];
    for (let n = 1; n <= count; n++) pages.push(await readPage(doc, n));
    const meta = readPdfMetadata(await doc.getMetadata() as unknown as PdfMetadataSource);
    const article = compose(pages, meta, url);
    if (article.text.replace(/\s+/g, "").length < config.emptyChars) {
      return { status: "empty", reason: NO_TEXT_REASON, extractor: "pdf", article };
    }
    const result: ExtractResult = { status: "ok", extractor: "pdf", article };
    if (count < total) {
      result.reason = `read the first ${count} of ${total} pages (page cap ${config.maxPages})`;
    }
    return result;
  } catch (error) {
    return unreadable(error, url);
  } finally {
    await doc.loadingTask.destroy().catch(() => {});
  }
}

async function readPage(
  doc: Awaited<ReturnType<typeof getDocumentProxy>>,
  n: number,
): Promise<PageText> {
  const page = await doc.getPage(n);
  try {
    const content = await page.getTextContent();
    const runs = (content.items as Item[]).filter((i): i is TextRun => "str" in i);
    const annotations = await page.getAnnotations({ intent: "display" }) as Annotation[];
    return { lines: toLines(runs), runs, links: linksOf(annotations, runs) };
  } finally {
    page.cleanup();
  }
}

/** Web links of a page's link annotations, with the text under each. */
function linksOf(annotations: readonly Annotation[], runs: readonly TextRun[]): Link[] {
  const links: Link[] = [];
  for (const a of annotations) {
    if (a.subtype !== "Link" || !a.url || !/^https?:/i.test(a.url)) continue;
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = a.rect ?? [];
    const under = runs.filter((r) => {
      const x = r.transform[4] ?? 0, y = r.transform[5] ?? 0;
      return x >= x1 - 1 && x <= x2 && y >= y1 - 2 && y <= y2;
    }).map((r) => r.hasEOL ? `${r.str} ` : r.str).join("").replace(/\s+/g, " ").trim();
    links.push({ url: a.url, text: under });
  }
  return links;
}

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
function compose(
  pages: readonly PageText[],
  meta: ReturnType<typeof readPdfMetadata>,
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
    excerpt: blocks.find((b) => b.type === "p" && b.text.length >= 50)?.text ?? null,
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

function siteOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last) : "";
  } catch {
    return "";
  }
}

/** pdf.js's refusal as a status: a password means encrypted, anything else is its reason. */
function unreadable(error: unknown, url: string): ExtractResult {
  const name = error instanceof Error || (typeof error === "object" && error !== null)
    ? String((error as { name?: unknown }).name ?? "")
    : "";
  const message = error instanceof Error ? error.message : String(error);
  const reason = name === "PasswordException"
    ? "encrypted PDF"
    : `corrupt PDF: ${message || name || "pdf.js could not read it"}`;
  return {
    status: "unreadable",
    reason,
    extractor: "pdf",
    article: {
      title: fileName(url),
      byline: null,
      site: siteOf(url),
      lang: null,
      published: null,
      excerpt: null,
      text: "",
      markdown: "",
      blocks: [],
      links: [],
    },
  };
}
