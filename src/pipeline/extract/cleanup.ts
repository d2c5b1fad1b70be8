/// <reference lib="dom" />
/**
 * Tidying Readability's article: it keeps whatever sits inside the winning
 * container, including image captions, bylines and date lines, author boxes,
 * share and rating widgets, "related" lists. These are not the article's text, so they are
 * removed before the text, blocks and Markdown are built.
 * @module
 */

/** Captions credit and describe pictures; the pictures are gone from text. */
const CAPTION_RE = /(?:^|[\s_-])(?:wp-caption-text|caption|figure__caption|imagedescription)/i;
/**
 * Class or id words of widgets that sit inside article containers (navboxes
 * and "[edit]" links are Wikipedia's, a common enough source to name).
 */
const WIDGET_RE =
  /(?:^|[\s_-])(?:author-?(?:box|bio|info|description)|about-?author|related|newsletter|subscribe|share|sharing|social|ratings?|breadcrumbs?|toc|post-?meta|entry-?meta|tags|categories|navbox|sidebar|mw-editsection)(?:$|[\s_-])/i;
/** Class or id words of the byline and date lines above or below an article. */
const DATELINE_RE =
  /(?:^|[\s_-])(?:byline|dateline|datum|date|timestamp|published|posted-?on|post-?date|entry-?date|article-?date)(?:$|[\s_-])/i;
/** Dates in a table or list are data (a schedule), not a dateline. */
const TABULAR_TAGS = new Set(["TD", "TH", "TR", "LI", "DT", "DD"]);
/** A byline or date line is short; a longer element with such a class is content. */
const MAX_DATELINE_CHARS = 120;
/** A matching element this large is a wrapper with content, not a widget. */
const MAX_WIDGET_SHARE = 0.25;

/** A tail block whose text is mostly link text is a list of other pages. */
const TAIL_LINK_DENSITY = 0.5;
const HEADING_TAGS = new Set(["H1", "H2", "H3", "H4", "H5", "H6"]);
const WRAPPER_TAGS = new Set(["DIV", "SECTION", "ARTICLE", "MAIN"]);
const MAX_HEADING_CHARS = 80;
const MAX_TAIL_DEPTH = 4;
/** Link lists longer than this share of the article are its content. */
const MAX_TAIL_SHARE = 0.5;

function linkDensity(el: Element): number {
  const total = (el.textContent ?? "").replace(/\s+/g, "").length;
  if (total === 0) return 1;
  let links = 0;
  for (const a of el.querySelectorAll("a")) {
    links += (a.textContent ?? "").replace(/\s+/g, "").length;
  }
  return links / total;
}

/** "© 2024 Example Inc. All rights reserved." */
const COPYRIGHT_RE = /^(?:©|\(c\)|copyright\b)|all rights reserved/i;
const MAX_COPYRIGHT_CHARS = 200;
/** "More on this topic:" — a label whose list is gone. */
const LABEL_RE = /[:：]$/;
const SENTENCE_END_RE = /[.!?…"”»]$/;
const MAX_LABEL_CHARS = 80;

/**
 * What may end an article without being part of it: a list of links, a
 * heading with nothing under it, a label ending in a colon, a copyright line.
 */
function isTailJunk(el: Element, text: string): boolean {
  if (linkDensity(el) >= TAIL_LINK_DENSITY) return true;
  if (HEADING_TAGS.has(el.nodeName)) {
    // A "heading" that ends a sentence is a pull quote, which is content.
    return text.length < MAX_HEADING_CHARS && !SENTENCE_END_RE.test(text);
  }
  if (text.length < MAX_LABEL_CHARS && LABEL_RE.test(text)) return true;
  return text.length < MAX_COPYRIGHT_CHARS && COPYRIGHT_RE.test(text);
}

/**
 * Drops link lists at the end of the article ("Read more", "Related") and
 * the heading that introduces them — unless they are most of the article
 * (a page that is a list of links).
 */
export function trimTail(root: Element): void {
  const doomed: Element[] = [];
  let chars = 0;
  let container: Element | null = root;
  for (let depth = 0; container !== null && depth < MAX_TAIL_DEPTH; depth++) {
    while (container.children.length === 1 && container.firstElementChild) {
      container = container.firstElementChild;
    }
    let el: Element | null = container.lastElementChild;
    for (; el !== null; el = el.previousElementSibling) {
      const text = (el.textContent ?? "").trim();
      if (!text) continue; // Images and embeds carry no text to judge: keep them.
      if (!isTailJunk(el, text)) break;
      doomed.push(el);
      chars += text.length;
    }
    // The article may end inside a wrapper: look at the wrapper's own tail.
    container = el !== null && WRAPPER_TAGS.has(el.nodeName) ? el : null;
  }
  if (chars <= MAX_TAIL_SHARE * (root.textContent ?? "").trim().length) {
    for (const el of doomed) el.remove();
  }
}

/** "23.10.2018", "2021-10-16". */
const NUMERIC_DATE_RE = /\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b(?:19|20)\d\d-\d\d-\d\d\b/;
const YEAR_RE = /\b(?:19|20)\d\d\b/;
/** A month name (en, de, fr, es, it, pl stems) or a clock time next to a year. */
const MONTH_OR_TIME_RE =
  /(?:^|[^\p{L}])(?:jan|feb|mär|mar|apr|ma[iyj]|jun|jul|aug|sep|o[ck]t|nov|de[cz]|juin|juil|août|déc|ene|abr|ago|dic|gen|giu|lug|set|ott|sty|lut|kwi|cze|lip|sie|wrz|paź|lis|gru)|\b\d{1,2}:\d\d\b/iu;
/** A date line is short; longer text with a year in it is content. */
const MAX_DATE_LINE_CHARS = 60;
/** How many leading lines may be date lines (date, "updated" date, reading time). */
const MAX_DATE_LINES = 3;

function isDateLine(text: string): boolean {
  return NUMERIC_DATE_RE.test(text) || (YEAR_RE.test(text) && MONTH_OR_TIME_RE.test(text));
}

/**
 * Drops the date lines an article opens with ("Donnerstag, 31. Mai 2012",
 * "Publikacja: 04.05.2021") when no class gave them away.
 */
export function trimHead(root: Element): void {
  let removed = 0;
  // Walks the article's first lines in reading order; false means "stop".
  const visit = (parent: Element): boolean => {
    for (let node = parent.firstChild; node !== null;) {
      const next: ChildNode | null = node.nextSibling;
      const text = (node.textContent ?? "").trim();
      if (text) {
        if (node.nodeType !== 1) return false;
        const el = node as Element;
        if (HEADING_TAGS.has(el.nodeName)) {
          // The title above the date line stays; look past it.
        } else if (text.length <= MAX_DATE_LINE_CHARS) {
          if (!isDateLine(text)) return false;
          el.remove();
          if (++removed >= MAX_DATE_LINES) return false;
        } else if (!el.firstElementChild || !visit(el)) return false;
      }
      node = next;
    }
    return true;
  };
  visit(root);
}

/**
 * Removes captions, date lines and embedded widgets from `root` (mutated). Elements that
 * hold a large share of the text are kept whatever their class says.
 *
 * @example
 * ```ts
 * cleanArticle(article); // <figcaption>, .author-box, .related… are gone
 * ```
 */
export function cleanArticle(root: Element): void {
  const limit = (root.textContent ?? "").length * MAX_WIDGET_SHARE;
  for (const el of root.querySelectorAll("figcaption")) el.remove();
  for (const el of root.querySelectorAll("[class], [id]")) {
    const words = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
    if (CAPTION_RE.test(words) || WIDGET_RE.test(words)) {
      if ((el.textContent ?? "").length <= limit) el.remove();
    } else if (DATELINE_RE.test(words) && !TABULAR_TAGS.has(el.nodeName)) {
      if ((el.textContent ?? "").trim().length <= MAX_DATELINE_CHARS) el.remove();
    }
  }
}
