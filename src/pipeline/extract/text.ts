/**
 * The extractor for bodies that are already text (`text/plain`,
 * `text/markdown`): the body is the article; paragraphs, headings, list
 * items and fences of Markdown become blocks.
 * @module
 */
import type { Article, Block, Link } from "../types.ts";

/** Longest title taken from a first line. */
const MAX_TITLE_CHARS = 200;
const CRLF_RE = /\r\n?/g;
const TRAILING_WS_RE = /[ \t]+$/gm;
const BLANK_RUN_RE = /\n{3,}/g;
const SPACES_RE = /\s+/g;
const HEADING_RE = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE_RE = /^\s*(```|~~~)/;
const LIST_ITEM_RE = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE_RE = /^\s*>\s?(.*)$/;
/** Markdown links `[text](url)` and bare URLs. */
const MD_LINK_RE = /\[([^\]]*)\]\((https?:\/\/[^\s)]+)(?:\s+"[^"]*")?\)/g;
const BARE_URL_RE = /\bhttps?:\/\/[^\s<>()[\]"']+/g;
const URL_TRAILING_PUNCT_RE = /[.,;:!?]+$/;

/** Markdown without the syntax that would show in a title. */
function plain(line: string): string {
  return line.replace(/[*_`]/g, "").replace(SPACES_RE, " ").trim();
}

/** Splits Markdown (or plain text, which has no syntax to find) into blocks. */
function textBlocks(text: string, markdown: boolean): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = (): void => {
    const t = para.join(" ").replace(SPACES_RE, " ").trim();
    if (t) blocks.push({ type: "p", text: t });
    para = [];
  };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!line.trim()) {
      flush();
      continue;
    }
    if (!markdown) {
      para.push(line);
      continue;
    }
    const fence = FENCE_RE.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? "").trimStart().startsWith(fence[1]!); i++) {
        code.push(lines[i] ?? "");
      }
      if (code.join("").trim()) blocks.push({ type: "pre", text: code.join("\n") });
      continue;
    }
    const heading = HEADING_RE.exec(line);
    const item = LIST_ITEM_RE.exec(line);
    const quote = QUOTE_RE.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: "heading", level: heading[1]!.length, text: plain(heading[2] ?? "") });
    } else if (item) {
      flush();
      blocks.push({ type: "li", text: item[1]!.trim() });
    } else if (quote) {
      flush();
      const prev = blocks.at(-1);
      if (prev?.type === "blockquote") prev.text += ` ${quote[1]!.trim()}`;
      else blocks.push({ type: "blockquote", text: quote[1]!.trim() });
    } else para.push(line);
  }
  flush();
  return blocks.filter((b) => b.text.trim());
}

/** Links written in the text, Markdown links first, one per URL. */
function textLinks(text: string): Link[] {
  const byUrl = new Map<string, Link>();
  const add = (href: string, label: string): void => {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return;
    }
    if (!byUrl.has(url.href)) byUrl.set(url.href, { url: url.href, text: label });
  };
  for (const m of text.matchAll(MD_LINK_RE)) add(m[2]!, plain(m[1] ?? ""));
  for (const m of text.matchAll(BARE_URL_RE)) {
    const href = m[0].replace(URL_TRAILING_PUNCT_RE, "");
    add(href, href);
  }
  return [...byUrl.values()];
}

/**
 * Reads a text or Markdown body as an article. The title is the first
 * heading (Markdown) or else the first line.
 *
 * @example
 * ```ts
 * textArticle("# Notes\n\nFirst point.", true).title; // "Notes"
 * ```
 */
export function textArticle(body: string, markdown: boolean): Article {
  const text = body.replace(CRLF_RE, "\n").replace(TRAILING_WS_RE, "").replace(BLANK_RUN_RE, "\n\n")
    .trim();
  const blocks = textBlocks(text, markdown);
  const heading = blocks.find((b) => b.type === "heading");
  const firstLine = text.split("\n", 1)[0] ?? "";
  const title = (heading?.text ?? plain(firstLine.replace(/^#+\s*/, ""))).slice(0, MAX_TITLE_CHARS);
  const firstPara = blocks.find((b) => b.type === "p" && b.text !== title);
  return {
    title,
    byline: null,
    site: null,
    lang: null,
    published: null,
    excerpt: firstPara?.text ?? null,
    text,
    markdown: text,
    blocks,
    links: textLinks(text),
  };
}
