/// <reference lib="dom" />
/**
 * The simpler extractor behind Readability (STYLE §6): the page body minus
 * the parts that are never the article — navigation, header, footer,
 * sidebars, scripts — so a page Readability gives up on (a list of links, a
 * short note, an odd layout) still yields its text.
 * @module
 */

/** Never content, wherever they are. */
const INERT_SELECTOR =
  "script, style, noscript, template, iframe, svg, button, select, textarea, object, embed, dialog";
/** Page furniture: removed unless it sits inside the main content or holds most of the text. */
// deno-fmt-ignore
const FRAME_SELECTOR = [
  "nav", "header", "footer", "aside", "menu", "[role=navigation]", "[role=banner]",
  "[role=contentinfo]", "[role=complementary]", "[role=search]", "[aria-hidden=true]", "[hidden]",
].join(", ");
/** Class or id words of boilerplate containers (cookie banners, share bars, comment threads). */
const BOILERPLATE_RE =
  /(?:^|[\s_-])(?:cookie|consent|breadcrumbs?|share|sharing|social|sidebar|skip-?link|newsletter|subscribe|popup|modal|banner|advert|ads|comments?|related|footer|navbar|menu)(?:$|[\s_-])/i;
const HIDDEN_STYLE_RE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
/** Where page furniture is part of the article (an article's own header). */
const CONTENT_SELECTOR = "main, article, [role=main]";
/**
 * A frame or boilerplate element holding more than this share of the page
 * text is a wrapper (some sites put the article in an `<aside>` or a
 * "sidebar-layout" div), so it stays.
 */
const MAX_REMOVED_SHARE = 0.5;
/** `main` wins over the whole body only when it holds this share of the text. */
const MAIN_TEXT_SHARE = 0.3;

function textLength(el: Element | null | undefined): number {
  return (el?.textContent ?? "").trim().length;
}

/**
 * Strips page furniture from `document` (which it mutates) and returns the
 * element that holds what is left of the content: `<main>` when it carries a
 * fair share of the text, else `<body>`.
 */
export function fallbackRoot(document: Document): Element {
  const body = document.body;
  for (const el of body.querySelectorAll(INERT_SELECTOR)) el.remove();
  const limit = textLength(body) * MAX_REMOVED_SHARE;
  for (const el of body.querySelectorAll(FRAME_SELECTOR)) {
    if (el.parentElement?.closest(CONTENT_SELECTOR)) continue;
    if (textLength(el) <= limit) el.remove();
  }
  for (const el of body.querySelectorAll("[class], [id], [style]")) {
    const words = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
    const boilerplate = BOILERPLATE_RE.test(words) ||
      HIDDEN_STYLE_RE.test(el.getAttribute("style") ?? "");
    if (boilerplate && el.isConnected && textLength(el) <= limit) el.remove();
  }
  const main = body.querySelector("main, [role=main]");
  if (main && textLength(main) >= MAIN_TEXT_SHARE * textLength(body)) return main;
  return body;
}
