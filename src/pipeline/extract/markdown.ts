/// <reference lib="dom" />
/**
 * Article DOM → Markdown with turndown: ATX headings, fenced code, `-`
 * bullets, and pipe tables for data tables (turndown alone would run the
 * cells of a table together).
 * @module
 */
// Deferred: evaluated on the first page turned into Markdown, not when a command starts.
import defer * as turndown from "turndown";
import { addTableRules } from "./markdown_tables.ts";

/** The part of turndown's API used here (the package ships no types). */
export interface TurndownRule {
  filter: (node: Node) => boolean;
  replacement: (content: string, node: Node) => string;
}
/** A turndown service, as far as these rules use it. */
export interface Turndown {
  addRule(key: string, rule: TurndownRule): Turndown;
  remove(filter: string[]): Turndown;
  turndown(node: Node): string;
  escape: (text: string) => string;
}

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

/** Most text needs no escaping: one test spares thirteen replaces. */
const NEEDS_ESCAPE_RE = /[\\*`[\]_]|^[-+=#~>\d]/;

function escapeMarkdown(text: string): string {
  if (!NEEDS_ESCAPE_RE.test(text)) return text;
  return ESCAPES.reduce((acc, [re, to]) => acc.replace(re, to), text);
}

const BLANK_RUN_RE = /\n{3,}/g;
const LEADING_NEWLINES_RE = /^\n+/;
const TRAILING_NEWLINES_RE = /\n+$/;
const LINE_START_RE = /\n/gm;

/** List items with a one-space marker (`- item`, `1. item`) instead of turndown's wide ones. */
function addListRule(service: Turndown): void {
  // Item numbers per list, counted once: looking each item up among its
  // siblings would be quadratic in long lists.
  const numbers = new WeakMap<Element, Map<Node, number>>();
  const numberOf = (list: Element, item: Node): number => {
    let map = numbers.get(list);
    if (!map) {
      const start = Number.parseInt(list.getAttribute("start") ?? "1", 10);
      let n = Number.isNaN(start) ? 1 : start;
      map = new Map();
      for (let c = list.firstElementChild; c !== null; c = c.nextElementSibling) map.set(c, n++);
      numbers.set(list, map);
    }
    return map.get(item) ?? 1;
  };
  service.addRule("listItem", {
    filter: (node) => node.nodeName === "LI",
    replacement: (content, node) => {
      const parent = node.parentNode as Element | null;
      const prefix = parent?.nodeName === "OL" ? `${numberOf(parent, node)}. ` : "- ";
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
  const Service = turndown.default as unknown as new (options: object) => Turndown;
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
