/// <reference lib="dom" />
/**
 * The cleaned article as HTML (`fetch --format html`): the content element
 * after cleanup, with every link and image address made absolute so the
 * HTML still works away from its page.
 * @module
 */

/** Attributes that hold an address, by element. */
const URL_ATTRIBUTES: readonly [string, string][] = [
  ["a[href]", "href"],
  ["img[src]", "src"],
  ["source[src]", "src"],
  ["video[src]", "src"],
  ["audio[src]", "src"],
];
/** Addresses left as written: in-page anchors and schemes that need no base. */
const KEEP_AS_IS = /^(?:#|data:|mailto:|tel:)/i;
/** `srcset` lists are rewritten to absolute URLs less reliably than they are dropped. */
const DROPPED_ATTRIBUTES = ["srcset"];

/**
 * Serializes `root`'s children with absolute addresses. Works on a copy: the
 * caller's element is left as it was.
 *
 * @example
 * ```ts
 * articleHtml(content, "https://example.com/post/"); // '<p>See <a href="https://example.com/post/a">…'
 * ```
 */
export function articleHtml(root: Element, baseUrl: string): string {
  const copy = root.cloneNode(true) as Element;
  for (const [selector, attribute] of URL_ATTRIBUTES) {
    for (const el of copy.querySelectorAll(selector)) {
      const value = (el.getAttribute(attribute) ?? "").trim();
      if (!value || KEEP_AS_IS.test(value)) continue;
      const url = URL.parse(value, baseUrl);
      if (url) el.setAttribute(attribute, url.href);
      else el.removeAttribute(attribute);
    }
  }
  for (const attribute of DROPPED_ATTRIBUTES) {
    for (const el of copy.querySelectorAll(`[${attribute}]`)) el.removeAttribute(attribute);
  }
  // Readability wraps what it found in <div id="readability-page-1">: not the page's own markup.
  const only = copy.children.length === 1 ? copy.firstElementChild : null;
  const inner = only && /^readability-page-\d+$/.test(only.id) ? only : copy;
  return inner.innerHTML.trim();
}
