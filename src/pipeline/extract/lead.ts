/// <reference lib="dom" />
/**
 * The lead (standfirst, intro, dek) of an article. News sites put it in the
 * article header next to the headline, which Readability leaves out with
 * the rest of the header; it is often the best summary on the page.
 * @module
 */

/** Class or id words of a lead paragraph. */
const LEAD_RE =
  /(?:^|[\s_-])(?:lead|intro|standfirst|subtitle|subline|dek|deck|summary|excerpt|abstract|kicker-text)(?:$|[\s_-])/i;
/** Shorter is a label; longer is more than a lead. */
const MIN_LEAD_CHARS = 40;
const MAX_LEAD_CHARS = 1000;
const WS_RE = /\s+/g;
const LEAD_TAGS = new Set(["P", "DIV", "H2", "SPAN", "SECTION"]);

/**
 * Finds the lead near the page's first `<h1>`: the first element with a lead
 * class inside the `<header>` or `<article>` that holds the heading. Call it
 * before Readability, which takes the header apart.
 */
export function findLead(document: Document): string | null {
  const h1 = document.body?.querySelector("h1");
  const scope = h1?.closest("header, article") ?? h1?.parentElement;
  if (!h1 || !scope) return null;
  for (const el of scope.querySelectorAll("[class], [id]")) {
    if (!LEAD_TAGS.has(el.nodeName) || el.contains(h1)) continue;
    const words = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
    if (!LEAD_RE.test(words)) continue;
    const text = (el.textContent ?? "").replace(WS_RE, " ").trim();
    if (text.length >= MIN_LEAD_CHARS && text.length <= MAX_LEAD_CHARS) return text;
  }
  return null;
}

/** Puts the lead in front of the article unless the article already has it. */
export function prependLead(root: Element, lead: string): void {
  const text = (root.textContent ?? "").replace(WS_RE, " ");
  if (text.includes(lead)) return;
  const p = root.ownerDocument.createElement("p");
  p.textContent = lead;
  root.insertBefore(p, root.firstChild);
}
