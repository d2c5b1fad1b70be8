/// <reference lib="dom" />
/**
 * Article DOM → Markdown with turndown: ATX headings, fenced code, `-`
 * bullets, and pipe tables for data tables (turndown alone would run the
 * cells of a table together).
 * @module
 */
import TurndownService from "turndown";

/** The part of turndown's API used here (the package ships no types). */
interface TurndownRule {
  filter: (node: Node) => boolean;
  replacement: (content: string, node: Node) => string;
}
interface Turndown {
  addRule(key: string, rule: TurndownRule): Turndown;
  remove(filter: string[]): Turndown;
  turndown(node: Node): string;
  escape: (text: string) => string;
}
const Service = TurndownService as unknown as new (options: object) => Turndown;

/** Options a reader of Markdown expects (CommonMark-style output). */
const TURNDOWN_OPTIONS = {
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  fence: "```",
  bulletListMarker: "-",
  emDelimiter: "_",
  strongDelimiter: "**",
  hr: "---",
  linkStyle: "inlined",
} as const;

/** Cells longer than this, or block content in cells, mean a layout table. */
const MAX_CELL_CHARS = 400;
/** Content that cannot sit in a one-line pipe-table cell. */
// deno-fmt-ignore
const LAYOUT_TAGS = new Set([
  "TABLE", "UL", "OL", "PRE", "BLOCKQUOTE", "H1", "H2", "H3", "H4", "H5", "H6", "DL",
]);
const CELL_NEWLINES_RE = /\s*\n+\s*/g;
const PIPE_RE = /\|/g;
const BLANK_RUN_RE = /\n{3,}/g;

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
function addTableRules(service: Turndown): void {
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

/**
 * Turndown's escapes, except that `_` inside a word stays bare: it cannot
 * start emphasis there (CommonMark), and `data\_dir` is noise to a reader.
 */
const ESCAPES: readonly [RegExp, string][] = [
  [/\\/g, "\\\\"],
  [/\*/g, "\\*"],
  [/^-/g, "\\-"],
  [/^\+ /g, "\\+ "],
  [/^(=+)/g, "\\$1"],
  [/^(#{1,6}) /g, "\\$1 "],
  [/`/g, "\\`"],
  [/^~~~/g, "\\~~~"],
  [/\[/g, "\\["],
  [/\]/g, "\\]"],
  [/^>/g, "\\>"],
  [/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_"],
  [/^(\d+)\. /g, "$1\\. "],
];

function escapeMarkdown(text: string): string {
  return ESCAPES.reduce((acc, [re, to]) => acc.replace(re, to), text);
}

const LEADING_NEWLINES_RE = /^\n+/;
const TRAILING_NEWLINES_RE = /\n+$/;
const LINE_START_RE = /\n/gm;

/** List items with a one-space marker (`- item`, `1. item`) instead of turndown's wide ones. */
function addListRule(service: Turndown): void {
  service.addRule("listItem", {
    filter: (node) => node.nodeName === "LI",
    replacement: (content, node) => {
      const parent = node.parentNode as Element | null;
      let prefix = "- ";
      if (parent?.nodeName === "OL") {
        const start = Number.parseInt(parent.getAttribute("start") ?? "1", 10);
        const index = Array.prototype.indexOf.call(parent.children, node);
        prefix = `${(Number.isNaN(start) ? 1 : start) + index}. `;
      }
      const body = content.replace(LEADING_NEWLINES_RE, "").replace(TRAILING_NEWLINES_RE, "\n")
        .replace(LINE_START_RE, `\n${" ".repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !body.endsWith("\n") ? "\n" : "");
    },
  });
}

/** A `<pre>` without `<code>` is still code (shell sessions, output): fence it too. */
function addPreRule(service: Turndown): void {
  service.addRule("bareCodeBlock", {
    filter: (node) => node.nodeName === "PRE" && node.firstChild?.nodeName !== "CODE",
    replacement: (_content, node) => {
      const code = (node.textContent ?? "").replace(TRAILING_NEWLINES_RE, "");
      let fence = "```";
      while (code.includes(fence)) fence += "`";
      return `\n\n${fence}\n${code}\n${fence}\n\n`;
    },
  });
}

const LINK_DEST_SPECIAL_RE = /([<>()])/g;

/** Links without their `title` tooltips, which repeat the text and cost tokens. */
function addLinkRule(service: Turndown): void {
  service.addRule("plainLink", {
    filter: (node) => node.nodeName === "A" && !!(node as Element).getAttribute("href"),
    replacement: (content, node) => {
      if (!content.trim()) return "";
      const href = ((node as Element).getAttribute("href") ?? "").replace(
        LINK_DEST_SPECIAL_RE,
        "\\$1",
      );
      return `[${content}](${href.includes(" ") ? `<${href}>` : href})`;
    },
  });
}

/** Inline images as data URIs are noise (and can be megabytes) in Markdown. */
function addImageRule(service: Turndown): void {
  service.addRule("dataImage", {
    filter: (node) =>
      node.nodeName === "IMG" && ((node as Element).getAttribute("src") ?? "").startsWith("data:"),
    replacement: (_content, node) => (node as Element).getAttribute("alt") ?? "",
  });
}

/**
 * Converts an article element to Markdown.
 *
 * @example
 * ```ts
 * toMarkdown(articleElement); // "## Heading\n\nFirst paragraph…"
 * ```
 */
export function toMarkdown(root: Element): string {
  const service = new Service(TURNDOWN_OPTIONS);
  service.remove(["script", "style", "noscript", "template", "iframe", "button", "form"]);
  service.escape = escapeMarkdown;
  addTableRules(service);
  addListRule(service);
  addPreRule(service);
  addLinkRule(service);
  addImageRule(service);
  return service.turndown(root).replace(BLANK_RUN_RE, "\n\n").trim();
}
