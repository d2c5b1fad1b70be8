/// <reference lib="dom" />
/**
 * Article DOM → blocks (headings, paragraphs, list items, code, table
 * cells, quotes) in reading order, and the plain text built from them. One
 * walk serves both so ranking and display see the same text.
 * @module
 */
import type { Block } from "../types.ts";

/** Elements that start a new block. Everything else is inline. */
// deno-fmt-ignore
const BLOCK_TAGS = new Set([
  "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
  "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
  "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "legend", "li", "main", "menu", "nav", "ol",
  "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
]);
/** Elements whose text is never content. */
// deno-fmt-ignore
const SKIP_TAGS = new Set([
  "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed",
  "select", "option", "textarea", "input", "button", "head", "title", "audio", "video",
]);
/** Heading tag → level. */
const HEADING_LEVEL: Readonly<Record<string, number>> = {
  h1: 1,
  h2: 2,
  h3: 3,
  h4: 4,
  h5: 5,
  h6: 6,
};
/** Marks a `<br>` in the buffer; source newlines are just spaces. */
const BR = "\ue000";
const SPACES_RE = /[\s\u200b]+/g;
const BR_RE = / ?\ue000[ \ue000]*/g;
const NEWLINES_RE = /\n+/g;
const TRAILING_WS_RE = /[ \t\r]+$/gm;
const EDGE_BLANK_LINES_RE = /^\n+|\n+$/g;

/** A block plus what the text layout needs: which table row a cell is in. */
interface Segment extends Block {
  /** Row number for `td`, so cells of one row share a line in the text. */
  row?: number;
}

/** The block type an element gives the text inside it, if it decides one. */
interface Context {
  type: Block["type"];
  level?: number;
  row?: number;
}

const P: Context = { type: "p" };

/** Collapses whitespace; each run of `<br>` becomes one newline. */
function normalize(text: string): string {
  return text.replace(SPACES_RE, " ").replace(BR_RE, "\n").trim();
}

/** Text of a `<pre>`, keeping its line breaks (`<br>` included) and indentation. */
function preText(el: Element): string {
  let out = "";
  const visit = (node: Node): void => {
    for (let c = node.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) out += (c as Text).data;
      else if (c.nodeType === 1) {
        const tag = (c as Element).localName.toLowerCase();
        if (tag === "br") out += "\n";
        else if (!SKIP_TAGS.has(tag)) visit(c);
      }
    }
  };
  visit(el);
  return out.replace(TRAILING_WS_RE, "").replace(EDGE_BLANK_LINES_RE, "");
}

/**
 * Splits `root` into blocks in reading order. A block's type comes from its
 * nearest heading, `pre`, `li`, cell or `blockquote` ancestor; other text is
 * a paragraph.
 */
export function toSegments(root: Element): Segment[] {
  const segments: Segment[] = [];
  let buf = "";
  let bufCtx: Context = P;
  let rows = 0;
  const flush = (): void => {
    if (!buf) return;
    const text = normalize(buf);
    buf = "";
    if (!text) return;
    const seg: Segment = { type: bufCtx.type, text };
    if (bufCtx.level !== undefined) seg.level = bufCtx.level;
    if (bufCtx.row !== undefined) seg.row = bufCtx.row;
    segments.push(seg);
  };
  const walk = (node: Node, ctx: Context): void => {
    for (let c = node.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) {
        if (!buf) bufCtx = ctx;
        buf += (c as Text).data;
        continue;
      }
      if (c.nodeType !== 1) continue;
      const el = c as Element;
      const tag = el.localName.toLowerCase();
      if (SKIP_TAGS.has(tag)) continue;
      if (tag === "br") {
        buf += BR;
        continue;
      }
      if (!BLOCK_TAGS.has(tag)) {
        walk(el, ctx);
        continue;
      }
      flush();
      if (tag === "pre") {
        const text = preText(el);
        if (text.trim()) segments.push({ type: "pre", text });
        continue;
      }
      walk(el, contextFor(tag, ctx, () => ++rows));
      flush();
    }
  };
  walk(root, P);
  flush();
  return segments;
}

function contextFor(tag: string, ctx: Context, nextRow: () => number): Context {
  const level = HEADING_LEVEL[tag];
  if (level !== undefined) return { type: "heading", level };
  switch (tag) {
    case "li":
    case "dd":
    case "dt":
      return { type: "li" };
    case "blockquote":
      return { type: "blockquote" };
    case "tr":
      return { ...ctx, row: nextRow() };
    case "td":
    case "th":
      return ctx.row === undefined ? { type: "td" } : { type: "td", row: ctx.row };
    case "table":
      return P;
    default:
      return ctx;
  }
}

/** Blocks without layout details. */
export function toBlocks(segments: Segment[]): Block[] {
  return segments.map((s) => {
    const b: Block = { type: s.type, text: s.text };
    if (s.level !== undefined) b.level = s.level;
    return b;
  });
}

/**
 * Plain text: blocks separated by blank lines; list items one a line; the
 * cells of a table row on one line, tab-separated.
 */
export function toText(segments: Segment[]): string {
  let out = "";
  let prev: Segment | undefined;
  for (const s of segments) {
    if (prev) {
      if (s.type === "td" && prev.type === "td" && s.row !== undefined && s.row === prev.row) {
        out += "\t";
      } else if (
        (s.type === "li" && prev.type === "li") || (s.type === "td" && prev.type === "td")
      ) {
        out += "\n";
      } else out += "\n\n";
    }
    out += s.type === "td" ? s.text.replace(NEWLINES_RE, " ") : s.text;
    prev = s;
  }
  return out;
}
