/**
 * The citation graph: explicit citations read out of reports and pages
 * (Markdown links, bare URLs, numbered reference lists, footnotes), each with
 * the sentence that cites it, and a walk over the graph to a given depth.
 * @module
 */
import { canonicalUrl } from "../../text/url.ts";

/** One cited URL and the sentence around its first mention. */
export interface ExtractedCitation {
  /** Canonical URL of the cited page. */
  url: string;
  /** The sentence that cites it, Markdown links reduced to their text. */
  context: string;
}

/** Limits of citation extraction. */
export interface CitationExtractConfig {
  /** Longest context kept, in characters. @default {300} */
  maxContext: number;
  /** Most citations read from one document. @default {500} */
  maxCitations: number;
}

/** Defaults of {@linkcode CitationExtractConfig}. */
export const DEFAULT_CITATION_EXTRACT_CONFIG: CitationExtractConfig = {
  maxContext: 300,
  maxCitations: 500,
};

/** `[text](url "title")`; a leading `!` marks an image, which is not a citation. */
const INLINE_LINK =
  /(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
/** `[label]: url`, `[^label]: … url`, and `[1] … url` at the start of a line. */
const REFERENCE_LINE = /^[ \t]*\[(\^?[^\]\n]+)\](:?)[ \t]+(.*)$/gm;
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`\]\[)(]+(?:\([^\s<>"'`()]*\)[^\s<>"'`\]\[)(]*)*/g;
const TRAILING_PUNCTUATION = /[.,;:!?'"*_~]+$/;
const SENTENCE_END = /[.!?](?=\s)|\n[ \t]*\n|\n(?=[ \t]*(?:[-*+] |\d+[.)] |#|>|\[\^?[^\]\n]+\]:))/g;
const MARKDOWN_LINK_TEXT = /!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)/g;
const NOTE_MARK = /\[\^?\d+\]|\[\^[^\]\s]+\]/g;
const SPACE = /\s+/g;
const SPACE_BEFORE_PUNCTUATION = /\s+([.,;:!?])/g;
const BLOCK_MARKER = /^(?:[-*+]|\d+[.)]|#+|>)\s+/;

function absoluteHttp(raw: string, base: string | undefined): string | undefined {
  const cleaned = raw.replace(TRAILING_PUNCTUATION, "");
  try {
    const url = base === undefined ? new URL(cleaned) : new URL(cleaned, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Where sentences of a text end: each boundary's start, and where the next sentence starts. */
export interface SentenceBounds {
  at: number[];
  next: number[];
  /** Where the sentence before the boundary stops (a newline is not part of it). */
  stop: number[];
}

/** The sentence boundaries of a text, found once for every link in it. */
export function sentenceBounds(text: string): SentenceBounds {
  const bounds: SentenceBounds = { at: [], next: [], stop: [] };
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
    bounds.at.push(m.index);
    bounds.next.push(m.index + m[0].length);
    bounds.stop.push(m.index + (m[0].startsWith("\n") ? 0 : 1));
  }
  return bounds;
}

/** Index of the first entry of a sorted list that is at least `value`. */
function firstAtLeast(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The sentence of `text` that holds the range [start, end), cleaned to plain
 * text. Pass the text's {@linkcode sentenceBounds} when asking for many
 * ranges: finding them again for each range made long pages quadratic.
 */
export function sentenceAround(
  text: string,
  start: number,
  end: number,
  maxLength = 300,
  bounds: SentenceBounds = sentenceBounds(text),
): string {
  // The sentence ends at the first boundary at or after the range; it starts
  // after the last boundary that ends before that one, at or before the range.
  const last = firstAtLeast(bounds.at, end);
  const to = last < bounds.at.length ? bounds.stop[last]! : text.length;
  let from = 0;
  const before = firstAtLeast(bounds.next, start + 1) - 1;
  if (before >= 0 && before < last) from = bounds.next[before]!;
  const sentence = text.slice(from, to).replace(MARKDOWN_LINK_TEXT, "$1").replace(NOTE_MARK, "")
    .replace(SPACE, " ").replace(SPACE_BEFORE_PUNCTUATION, "$1").trim().replace(BLOCK_MARKER, "");
  return sentence.length <= maxLength ? sentence : `${sentence.slice(0, maxLength - 1).trimEnd()}…`;
}

/**
 * Reads every cited URL of a Markdown or plain-text document, in order of
 * first mention, each once (by canonical URL). A reference or footnote
 * definition takes its context from the sentence that uses its label
 * (`… as shown [1].`), falling back to the definition's own text.
 *
 * @example
 * ```ts
 * extractCitations("Tides follow the moon [1].\n\n[1]: https://ex.org/tides");
 * // [{ url: "https://ex.org/tides", context: "Tides follow the moon." }]
 * ```
 */
export function extractCitations(
  markdown: string,
  base?: string,
  config: CitationExtractConfig = DEFAULT_CITATION_EXTRACT_CONFIG,
): ExtractedCitation[] {
  const found = new Map<string, { at: number; context: string }>();
  const bounds = sentenceBounds(markdown);
  const masked: Array<[number, number]> = [];
  const add = (raw: string, at: number, context: () => string) => {
    const url = absoluteHttp(raw, base);
    if (!url) return;
    const key = canonicalUrl(url);
    const seen = found.get(key);
    if (seen && seen.context) return;
    found.set(key, { at: Math.min(at, seen?.at ?? at), context: context() });
  };
  const inBody = (label: string): RegExpExecArray | null => {
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`\\[${escaped}\\](?![:(])`).exec(markdown);
  };
  for (const m of markdown.matchAll(REFERENCE_LINE)) {
    const [line, label, colon, rest] = m as unknown as [string, string, string, string];
    const numbered = /^\^?\d+$/.test(label) || label.startsWith("^");
    if (!colon && !numbered) continue;
    const urlMatch = URL_IN_TEXT.exec(rest) ?? (colon ? /^<?(\S+?)>?(?:\s|$)/.exec(rest) : null);
    URL_IN_TEXT.lastIndex = 0;
    if (!urlMatch) continue;
    masked.push([m.index, m.index + line.length]);
    const use = inBody(label);
    const title = rest.replace(urlMatch[0], "").replace(/^["'(\s]+|["')\s]+$/g, "");
    add(
      urlMatch[1] ?? urlMatch[0],
      use?.index ?? m.index,
      () =>
        use
          ? sentenceAround(
            markdown,
            use.index,
            use.index + use[0].length,
            config.maxContext,
            bounds,
          )
          : title.replace(SPACE, " ").slice(0, config.maxContext),
    );
  }
  for (const m of markdown.matchAll(INLINE_LINK)) {
    masked.push([m.index, m.index + m[0].length]);
    if (m[1] === "!") continue;
    add(
      m[3]!,
      m.index,
      () => sentenceAround(markdown, m.index, m.index + m[0].length, config.maxContext, bounds),
    );
  }
  for (const m of markdown.matchAll(URL_IN_TEXT)) {
    if (masked.some(([from, to]) => m.index >= from && m.index < to)) continue;
    add(
      m[0],
      m.index,
      () => sentenceAround(markdown, m.index, m.index + m[0].length, config.maxContext, bounds),
    );
  }
  return [...found.entries()]
    .sort((a, b) => a[1].at - b[1].at)
    .slice(0, config.maxCitations)
    .map(([url, { context }]) => ({ url, context }));
}

/** A link target with a scheme (`https:`, `mailto:`), protocol-relative, or in-page only. */
const NOT_RELATIVE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;

/** The `file:` URL of an absolute path, escaped as a URL. */
export function fileUrl(path: string): URL {
  const url = new URL("file:///");
  url.pathname = path;
  return url;
}

/** The path a `file:` URL names, or undefined for any other URL. */
export function pathOfFileUrl(url: string): string | undefined {
  const parsed = URL.parse(url);
  if (parsed?.protocol !== "file:") return undefined;
  try {
    return decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
}

/**
 * Relative Markdown links of an indexed file (`[notes](other.md)`,
 * `[x](../a/b.md#part)`), as `file:` URLs resolved beside the file, each once
 * with the sentence that links it. The archive links them to the file's document.
 *
 * @example
 * ```ts
 * extractFileLinks("See [the plan](plan.md).", "/notes/a.md");
 * // [{ url: "file:///notes/plan.md", context: "See the plan." }]
 * ```
 */
export function extractFileLinks(
  markdown: string,
  path: string,
  config: CitationExtractConfig = DEFAULT_CITATION_EXTRACT_CONFIG,
): ExtractedCitation[] {
  const base = fileUrl(path);
  const found = new Map<string, string>();
  for (const m of markdown.matchAll(INLINE_LINK)) {
    const target = m[3]!;
    if (m[1] === "!" || NOT_RELATIVE.test(target) || found.size >= config.maxCitations) continue;
    const url = URL.parse(target, base);
    if (!url || url.protocol !== "file:") continue;
    url.hash = "";
    url.search = "";
    if (url.href === base.href || found.has(url.href)) continue;
    found.set(
      url.href,
      sentenceAround(markdown, m.index, m.index + m[0].length, config.maxContext),
    );
  }
  return [...found].map(([url, context]) => ({ url, context }));
}
