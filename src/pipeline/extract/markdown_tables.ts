/// <reference lib="dom" />
/**
 * Turndown rules for tables: data tables (rows of short cells) become pipe
 * tables; layout tables fall through to turndown's paragraphs.
 * @module
 */
import type { Turndown } from "./markdown.ts";

/** Cells longer than this, or block content in cells, mean a layout table. */
const MAX_CELL_CHARS = 400;
/** Content that cannot sit in a one-line pipe-table cell. */
// deno-fmt-ignore
const LAYOUT_TAGS = new Set([
  "TABLE", "UL", "OL", "PRE", "BLOCKQUOTE", "H1", "H2", "H3", "H4", "H5", "H6", "DL",
]);
const CELL_NEWLINES_RE = /\s*\n+\s*/g;
const PIPE_RE = /\|/g;

/** Whether any element under `el` has one of `tags`. */
function hasDescendant(el: Element, tags: Set<string>): boolean {
  for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (tags.has(c.nodeName) || hasDescendant(c, tags)) return true;
  }
  return false;
}

/** A table of data (rows of short cells) rather than page layout. */
function isDataTable(table: Element): boolean {
  if (hasDescendant(table, LAYOUT_TAGS)) return false;
  let rows = 0;
  const visit = (el: Element): boolean => {
    for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
      if (c.nodeName === "TR") rows++;
      if (c.nodeName === "TD" || c.nodeName === "TH") {
        if ((c.textContent ?? "").length > MAX_CELL_CHARS) return false;
      } else if (!visit(c)) return false;
    }
    return true;
  };
  return visit(table) && rows > 0;
}

function closestTable(node: Node): Element | null {
  for (let p = node.parentNode; p !== null; p = p.parentNode) {
    if (p.nodeName === "TABLE") return p as Element;
  }
  return null;
}

/** The first row of a table, which a pipe table shows as its header. */
function firstRow(table: Element): Element | null {
  for (let c = table.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.nodeName === "TR") return c;
    if (c.nodeName === "THEAD" || c.nodeName === "TBODY" || c.nodeName === "TFOOT") {
      const row = firstRow(c);
      if (row) return row;
    }
  }
  return null;
}

/** Adds pipe-table rules for data tables; layout tables fall through as paragraphs. */
export function addTableRules(service: Turndown): void {
  // Every cell asks about its table: decide once per table.
  const verdicts = new WeakMap<Element, boolean>();
  const isData = (table: Element): boolean => {
    let v = verdicts.get(table);
    if (v === undefined) verdicts.set(table, v = isDataTable(table));
    return v;
  };
  const inDataTable = (node: Node): boolean => {
    const table = closestTable(node);
    return table !== null && isData(table);
  };
  service.addRule("tableCell", {
    filter: (node) => (node.nodeName === "TD" || node.nodeName === "TH") && inDataTable(node),
    replacement: (content, node) => {
      const cell = content.trim().replace(CELL_NEWLINES_RE, " ").replace(PIPE_RE, "\\|");
      const first = (node as Element).previousElementSibling === null;
      return `${first ? "| " : " "}${cell} |`;
    },
  });
  service.addRule("tableRow", {
    filter: (node) => node.nodeName === "TR" && inDataTable(node),
    replacement: (content, node) => {
      const row = node as Element;
      const table = closestTable(row);
      if (table === null || firstRow(table) !== row) return `\n${content}`;
      const separator = "|" + " --- |".repeat(Math.max(1, row.children.length));
      return `\n${content}\n${separator}`;
    },
  });
  service.addRule("table", {
    filter: (node) => node.nodeName === "TABLE" && isData(node as Element),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  service.addRule("tableSection", {
    filter: (node) =>
      (node.nodeName === "THEAD" || node.nodeName === "TBODY" || node.nodeName === "TFOOT") &&
      inDataTable(node),
    replacement: (content) => content,
  });
}
