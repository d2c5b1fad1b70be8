/// <reference lib="dom" />
/**
 * Links of the article content: absolute http(s) URLs with their anchor
 * text, first occurrence first, one entry per URL.
 * @module
 */
import type { Link } from "../types.ts";

const WS_RE = /\s+/g;
const HTTP_RE = /^https?:$/;

/** Anchor text, or a label when the link wraps only an image or an icon. */
function anchorText(a: Element): string {
  const text = (a.textContent ?? "").replace(WS_RE, " ").trim();
  if (text) return text;
  const label = a.getAttribute("aria-label") ?? a.getAttribute("title") ??
    a.querySelector("img[alt]")?.getAttribute("alt") ?? "";
  return label.replace(WS_RE, " ").trim();
}

/**
 * Collects the links under `root`. `javascript:`, `mailto:` and other
 * non-http(s) links are dropped, and so are links to a place in the page
 * itself (`#section`), which lead nowhere new.
 *
 * @example
 * ```ts
 * collectLinks(article, "https://example.com/a", "https://example.com/a");
 * // [{ url: "https://example.com/b", text: "Next page" }]
 * ```
 */
export function collectLinks(root: Element, pageUrl: string, baseUrl: string): Link[] {
  const page = pageUrl.split("#")[0];
  const byUrl = new Map<string, Link>();
  for (const a of root.querySelectorAll("a[href]")) {
    const href = (a.getAttribute("href") ?? "").trim();
    if (!href || href.startsWith("#")) continue;
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      continue;
    }
    if (!HTTP_RE.test(url.protocol) || url.username || url.password) continue;
    if (url.hash && url.href.split("#")[0] === page) continue;
    const text = anchorText(a);
    const seen = byUrl.get(url.href);
    if (!seen) byUrl.set(url.href, { url: url.href, text });
    else if (!seen.text && text) seen.text = text;
  }
  return [...byUrl.values()];
}
