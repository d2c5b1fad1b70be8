/**
 * Page furniture: running headers and footers that repeat on most pages, and
 * page numbers. They sit at the top or bottom of a page, so only the first
 * and last few lines of each page are looked at; digits are masked so
 * "Chapter 2 · 17" and "Chapter 2 · 18" count as the same header.
 * @module
 */
import type { Line } from "./pdf_lines.ts";

/** Lines at each end of a page that may be furniture. */
const EDGE_LINES = 3;
/** A line repeating at the edge of at least this share of pages is furniture… */
const REPEAT_SHARE = 0.5;
/** …when the document has at least this many pages. */
const MIN_PAGES = 3;
/** "12", "- 12 -", "Page 12", "Page 12 of 40", "12/40", roman "xii". */
const PAGE_NUMBER =
  /^(?:[-–—\s]*(?:page|seite|p\.)?\s*\d{1,4}(?:\s*(?:of|\/|von)\s*\d{1,4})?[-–—\s]*|(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))$/i;
const DIGITS = /\d+/g;

function keyOf(text: string): string {
  return text.toLowerCase().replace(DIGITS, "#").replace(/\s+/g, " ").trim();
}

/** Indexes of a page's non-empty lines within `EDGE_LINES` of its top or bottom. */
function edgeIndexes(lines: readonly Line[]): number[] {
  const filled = lines.flatMap((l, i) => (l.text === "" ? [] : [i]));
  if (filled.length <= 2 * EDGE_LINES) return filled;
  return [...filled.slice(0, EDGE_LINES), ...filled.slice(-EDGE_LINES)];
}

/**
 * Drops running headers, footers and page numbers from every page's lines.
 *
 * @example
 * ```ts
 * const pages = dropFurniture([[{ text: "Report", y: 800, x: 0, size: 9 }, …], …]);
 * ```
 */
export function dropFurniture(pages: readonly Line[][]): Line[][] {
  const edges = pages.map(edgeIndexes);
  const counts = new Map<string, number>();
  for (const [p, indexes] of edges.entries()) {
    const keys = new Set(indexes.map((i) => keyOf(pages[p]![i]!.text)));
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(MIN_PAGES, Math.ceil(REPEAT_SHARE * pages.length));
  const repeated = (key: string) =>
    pages.length >= MIN_PAGES && (counts.get(key) ?? 0) >= threshold;
  return pages.map((lines, p) => {
    const drop = new Set(
      edges[p]!.filter((i) => {
        const text = lines[i]!.text;
        return PAGE_NUMBER.test(text.trim()) || repeated(keyOf(text));
      }),
    );
    return lines.filter((_, i) => !drop.has(i));
  });
}
