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
import { emptyArticle, type ExtractResult, type Link } from "../types.ts";
import { composePdf, fileName, type PageText, siteOf } from "./pdf_article.ts";
import { type TextRun, toLines } from "./pdf_lines.ts";
import { type PdfMetadataSource, readPdfMetadata } from "./pdf_meta.ts";

export { isPdfBytes } from "./pdf_magic.ts";

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

const NO_TEXT_REASON = "no text layer (scanned pages?)";

/** The pdf.js text item and link annotation, as far as they are read here. */
type Item = TextRun | { type: string };
interface Annotation {
  subtype?: string;
  url?: string;
  rect?: number[];
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
    const article = composePdf(pages, meta, url);
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
    return { lines: toLines(runs), links: linksOf(annotations, runs) };
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
    article: emptyArticle({ title: fileName(url), site: siteOf(url) }),
  };
}
