/**
 * Bounds on what a page may cost to parse. linkedom and Readability walk the
 * tree recursively and measure ancestors, so their time grows faster than the
 * depth: 800 nested `<div>`s take seconds, 100,000 never end. Real pages nest
 * a few dozen levels, so tags past a depth bound are flattened (dropped, their
 * text kept) before parsing; a page with more elements than any article has
 * is refused as `too_large`. The worker pool's timeout is the last bound.
 * @module
 */

/** Limits applied to markup before it is parsed. */
export interface BoundConfig {
  /** Elements nested deeper than this are flattened into their parent. */
  maxDepth: number;
  /** More start tags than this and the page is `too_large`. */
  maxElements: number;
  /** Lines of a text body longer than this (characters) are broken at a space. */
  maxLineChars: number;
}

/** Default bounds: far above real articles, far below what stalls the parser. */
export const DEFAULT_BOUND_CONFIG: Readonly<BoundConfig> = Object.freeze({
  maxDepth: 128,
  maxElements: 60_000,
  maxLineChars: 20_000,
});

/** Markup within bounds, or the reason it is not. */
export type Bounded =
  | { ok: true; html: string; flattened: number }
  | { ok: false; elements: number };

/** Start or end tag; comments, scripts and styles are gone by now (stripInert). */
const TAG_RE = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)(?:\s[^>]*)?(\/?)>/g;
/** Elements that never have children. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
/** Elements a parser closes when a sibling of the same kind opens (`<li>a<li>b`). */
const SELF_CLOSING_SIBLINGS = new Set(["p", "li", "dt", "dd", "option", "tr", "td", "th"]);
/** How far up an end tag looks for its start tag; a stray end tag is left to the parser. */
const END_TAG_REACH = 32;

/**
 * Flattens elements nested deeper than `maxDepth` (their tags become a space,
 * their text stays) and refuses markup with more than `maxElements` elements.
 * Linear in the length of `html`; returns `html` itself when nothing changed.
 *
 * @example
 * ```ts
 * const b = boundMarkup("<div>".repeat(500) + "x", { maxDepth: 100 });
 * if (b.ok) console.log(b.flattened); // 400
 * ```
 */
export function boundMarkup(html: string, config: Partial<BoundConfig> = {}): Bounded {
  const { maxDepth, maxElements } = { ...DEFAULT_BOUND_CONFIG, ...config };
  const stack: string[] = [];
  const dropped = new Map<string, number>();
  const pieces: string[] = [];
  let elements = 0;
  let flattened = 0;
  let copiedTo = 0;
  const drop = (start: number, end: number) => {
    pieces.push(html.slice(copiedTo, start), " ");
    copiedTo = end;
  };
  for (const m of html.matchAll(TAG_RE)) {
    const name = m[2]!.toLowerCase();
    const start = m.index;
    const end = start + m[0].length;
    if (m[1] === "/") {
      const owed = dropped.get(name) ?? 0;
      if (owed > 0) {
        dropped.set(name, owed - 1);
        drop(start, end);
      } else closeTo(stack, name);
      continue;
    }
    if (++elements > maxElements) return { ok: false, elements };
    if (m[3] === "/" || VOID.has(name)) continue;
    if (SELF_CLOSING_SIBLINGS.has(name) && stack.at(-1) === name) stack.pop();
    if (stack.length >= maxDepth) {
      dropped.set(name, (dropped.get(name) ?? 0) + 1);
      flattened++;
      drop(start, end);
    } else stack.push(name);
  }
  if (flattened === 0) return { ok: true, html, flattened };
  pieces.push(html.slice(copiedTo));
  return { ok: true, html: pieces.join(""), flattened };
}

/** Pops the stack to the nearest open `name`, if it is near enough to be the match. */
function closeTo(stack: string[], name: string): void {
  const floor = Math.max(0, stack.length - END_TAG_REACH);
  for (let i = stack.length - 1; i >= floor; i--) {
    if (stack[i] === name) {
      stack.length = i;
      return;
    }
  }
}

/** Whitespace to break an over-long line at, looked for backwards from the cap. */
const BREAK_BACK = 200;

/**
 * Breaks lines longer than `maxLineChars` (at a space near the cap when there
 * is one), so sentence splitting and Markdown rendering see bounded lines.
 *
 * @example
 * ```ts
 * capLines("a ".repeat(30), 10).split("\n").length; // 6
 * ```
 */
export function capLines(text: string, maxLineChars: number): string {
  if (text.length <= maxLineChars) return text;
  const out: string[] = [];
  for (const line of text.split("\n")) {
    let rest = line;
    while (rest.length > maxLineChars) {
      const space = rest.lastIndexOf(" ", maxLineChars);
      const cut = space > 0 && space > maxLineChars - BREAK_BACK ? space : maxLineChars;
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut).trimStart();
    }
    out.push(rest);
  }
  return out.join("\n");
}
