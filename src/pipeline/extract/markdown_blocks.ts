/**
 * Blocks from Markdown: the archive keeps pages as Markdown, and answering
 * from it (`search --local`, a 304 on re-fetch) ranks the same blocks as a
 * freshly extracted page.
 * @module
 */
import type { Block } from "../types.ts";

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const TABLE_ROW = /^\s*\|(.*)\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}/;
const INLINE_LINK = /!?\[([^\]]*)\]\([^)]*\)/g;
const EMPHASIS = /(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g;
const SETEXT = /^\s*(=+|-+)\s*$/;

/** Markdown inline syntax removed: link text kept, emphasis and code marks dropped. */
export function plainInline(text: string): string {
  return text.replace(INLINE_LINK, "$1").replace(EMPHASIS, "$2").replace(/\s+/g, " ").trim();
}

/** Splits Markdown into blocks in reading order. */
export function blocksFromMarkdown(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split(/\r?\n/);
  let paragraph: string[] = [];
  const flush = () => {
    const text = plainInline(paragraph.join(" "));
    if (text) blocks.push({ type: "p", text });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      flush();
      const code: string[] = [];
      const fence = line.trim().slice(0, 3);
      while (++i < lines.length && !lines[i]!.trim().startsWith(fence)) code.push(lines[i]!);
      if (code.length > 0) blocks.push({ type: "pre", text: code.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: "heading", level: heading[1]!.length, text: plainInline(heading[2]!) });
      continue;
    }
    if (paragraph.length === 1 && SETEXT.test(line)) {
      const text = plainInline(paragraph[0]!);
      paragraph = [];
      blocks.push({ type: "heading", level: line.trim().startsWith("=") ? 1 : 2, text });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    const quote = QUOTE.exec(line);
    const row = TABLE_ROW.exec(line);
    if (item || quote || row || line.trim() === "") flush();
    if (item) blocks.push({ type: "li", text: plainInline(item[1]!) });
    else if (quote) {
      const text = plainInline(quote[1]!);
      if (text) blocks.push({ type: "blockquote", text });
    } else if (row) {
      if (TABLE_RULE.test(line)) continue;
      const cells = row[1]!.split("|").map(plainInline).filter(Boolean);
      if (cells.length > 0) blocks.push({ type: "td", text: cells.join(" | ") });
    } else if (line.trim() !== "") paragraph.push(line);
  }
  flush();
  return blocks;
}
