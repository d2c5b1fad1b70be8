/// <reference lib="dom" />
/**
 * Turning an HTML string into a linkedom document that knows its URL.
 * @module
 */
// Deferred: evaluated on the first page parsed, not when a command starts (src/main.ts).
import defer * as linkedom from "linkedom";

/** linkedom's document, used through the standard DOM types. */
type LinkedDocument = Document;

/**
 * Scripts, styles, comments and inline SVG (icons: thousands of path nodes)
 * carry no readable text but cost parse time and memory, so they are cut
 * out of the string before parsing. One
 * alternation scanned left to right mirrors the HTML tokenizer: whichever of
 * `<!--`, `<script`, `<style` starts first wins, so a `<script>` inside a
 * comment (or `<!--` inside a script) does not swallow real content. An
 * end tag runs to its `>` (`</script\n<!-- … -->` is one tag to a browser);
 * a self-closing `<svg/>` ends where it stands.
 */
const STRIP_RE =
  /<!--[\s\S]*?-->|<script\b([^>]*)>[\s\S]*?<\/script(?:[\s/][^>]*)?>|<style\b[^>]*>[\s\S]*?<\/style(?:[\s/][^>]*)?>|<svg\b[^>]*\/>|<svg\b[\s\S]*?<\/svg\s*>/gi;
/** JSON-LD scripts hold metadata (author, dates) that Readability and we read. */
const JSON_LD_RE = /\btype\s*=\s*["']?application\/ld\+json/i;
/** `<base href>` changes what relative links resolve against. */
const BASE_HREF_RE = /<base\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/**
 * Removes comments, styles, inline SVG and every script but JSON-LD from `html`.
 *
 * @example
 * ```ts
 * stripInert('<p>a</p><script>x()</script>'); // '<p>a</p>'
 * ```
 */
export function stripInert(html: string): string {
  return html.replace(STRIP_RE, (match: string, scriptAttrs: string | undefined) => {
    if (scriptAttrs !== undefined && JSON_LD_RE.test(scriptAttrs)) return match;
    return "";
  });
}

/** How many `<script` tags the raw page has: a page of scripts and no text is a JS app. */
export function countScripts(html: string): number {
  let n = 0;
  for (let i = html.indexOf("<script"); i !== -1; i = html.indexOf("<script", i + 7)) n++;
  return n;
}

/** Returns `url` when it parses, else `null`. */
function tryUrl(href: string, base: string | URL): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

/**
 * The URL relative links resolve against: the page URL, or its `<base href>`
 * resolved against the page URL (linkedom documents have no URL of their own).
 */
export function baseUrlOf(html: string, pageUrl: string): string {
  const page = tryUrl(pageUrl, "http://invalid/") ?? new URL("http://invalid/");
  const m = BASE_HREF_RE.exec(html);
  const href = m ? (m[1] ?? m[2] ?? m[3] ?? "").trim() : "";
  if (!href) return page.href;
  return tryUrl(href, page)?.href ?? page.href;
}

/** Elements that belong in `<head>` when a page omits the tags a parser would infer. */
const HEAD_TAGS = new Set(["title", "meta", "link", "base", "style", "script", "noscript"]);

/** Whether the root is `<html>` with a `<head>` and a `<body>` child, as in most pages. */
function hasStructure(document: LinkedDocument): boolean {
  const root = document.documentElement;
  if (!root || root.localName.toLowerCase() !== "html") return false;
  let head = false;
  let body = false;
  for (const child of root.children) {
    const tag = child.localName.toLowerCase();
    if (tag === "head") head = true;
    else if (tag === "body") body = true;
  }
  return head && body;
}

/**
 * linkedom does not infer `<html>`, `<head>` and `<body>` as browsers do
 * (a fragment's first element becomes the root; `document.body` is then a
 * detached empty element). Rebuilds the tree the way a browser would:
 * head-only elements before the first content go to `<head>`, the rest to
 * `<body>`.
 */
function restructure(document: LinkedDocument): void {
  const html = document.createElement("html");
  const head = document.createElement("head");
  const body = document.createElement("body");
  html.append(head, body);
  const root = document.documentElement;
  const lang = root?.getAttribute("lang");
  if (lang) html.setAttribute("lang", lang);
  const place = (node: ChildNode): void => {
    if (node.nodeType === 1) {
      const el = node as Element;
      const tag = el.localName.toLowerCase();
      if (tag === "html" || tag === "head" || tag === "body") {
        for (const child of [...el.childNodes]) place(child);
        return;
      }
      if (HEAD_TAGS.has(tag) && body.firstChild === null) head.append(el);
      else body.append(el);
    } else if (node.nodeType === 3) {
      if (body.firstChild !== null || (node.textContent ?? "").trim()) body.append(node);
    }
  };
  for (const node of [...document.childNodes]) {
    if (node.nodeType !== 10) place(node);
  }
  for (const node of [...document.childNodes]) {
    if (node.nodeType !== 10) node.remove();
  }
  document.append(html);
}

/** A parsed page and the URLs it resolves against. */
export interface ParsedPage {
  document: Document;
  /** The page's own URL (for in-page anchors). */
  pageUrl: string;
  /** What relative URLs resolve against (`<base href>` or the page URL). */
  baseUrl: string;
}

/**
 * Parses already-stripped HTML with linkedom and gives the document the
 * `documentURI`/`baseURI` a browser would, so Readability makes links absolute.
 */
export function parsePage(html: string, pageUrl: string, baseUrl: string): ParsedPage {
  const { document } = linkedom.parseHTML(html);
  if (!hasStructure(document)) restructure(document);
  Object.defineProperty(document, "documentURI", { value: pageUrl, configurable: true });
  Object.defineProperty(document, "baseURI", { value: baseUrl, configurable: true });
  return { document, pageUrl, baseUrl };
}
