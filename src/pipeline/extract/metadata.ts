/// <reference lib="dom" />
/**
 * Page metadata read from `<html lang>`, `<meta>` tags, JSON-LD and links in
 * `<head>`, before Readability mutates the document. Readability reads much
 * of the same (and its values win when it succeeds); this copy serves the
 * fallback extractor and the fields Readability does not report.
 * @module
 */
import { clean, jsonLd, names } from "./jsonld.ts";

/** What the page says about itself. Empty means unknown. */
export interface PageMetadata {
  title: string | null;
  byline: string | null;
  site: string | null;
  lang: string | null;
  /** As written in the page; see {@linkcode toIsoDate}. */
  published: string | null;
  excerpt: string | null;
  canonical: string | null;
}

/** `<meta>` keys in the order each field prefers them (lower-cased `name`/`property`). */
const META_KEYS = {
  title: ["og:title", "dc:title", "dcterm:title", "twitter:title", "parsely-title"],
  byline: ["author", "dc:creator", "dcterm:creator", "parsely-author", "sailthru.author"],
  site: ["og:site_name", "application-name", "apple-mobile-web-app-title"],
  published: [
    "article:published_time",
    "parsely-pub-date",
    "og:published_time",
    "datepublished",
    "dc.date.issued",
    "dcterms.date",
    "dc.date",
    "date",
    "sailthru.date",
    "pubdate",
  ],
  excerpt: [
    "description",
    "og:description",
    "dc:description",
    "dcterm:description",
    "twitter:description",
  ],
} as const;

const URL_RE = /^https?:\/\//i;
const WS_RE = /\s+/g;

/** The elements metadata comes from, found in one walk (each selector query walks the whole tree). */
interface MetaSources {
  metas: Element[];
  jsonLd: Element[];
  canonical: Element | null;
  pubTime: Element | null;
  h1: Element | null;
}

const LD_TYPE_RE = /^\s*application\/ld\+json\s*$/i;
const CANONICAL_RE = /(?:^|\s)canonical(?:\s|$)/i;
const DATE_PUBLISHED_RE = /(?:^|\s)datePublished(?:\s|$)/;

function scan(document: Document): MetaSources {
  const found: MetaSources = { metas: [], jsonLd: [], canonical: null, pubTime: null, h1: null };
  const stack: Element[] = document.documentElement ? [document.documentElement] : [];
  while (stack.length > 0) {
    const el = stack.pop()!;
    switch (el.nodeName) {
      case "META":
        found.metas.push(el);
        break;
      case "SCRIPT":
        if (LD_TYPE_RE.test(el.getAttribute("type") ?? "")) found.jsonLd.push(el);
        break;
      case "LINK":
        if (!found.canonical && CANONICAL_RE.test(el.getAttribute("rel") ?? "")) {
          found.canonical = el;
        }
        break;
      case "TIME":
        if (
          !found.pubTime && el.hasAttribute("datetime") &&
          (el.hasAttribute("pubdate") || DATE_PUBLISHED_RE.test(el.getAttribute("itemprop") ?? ""))
        ) found.pubTime = el;
        break;
      case "H1":
        found.h1 ??= el;
        break;
    }
    // Children pushed last-first so they pop in document order.
    for (let c = el.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c);
  }
  return found;
}

/** `<meta name|property|itemprop=… content=…>` as a lower-cased key → first value map. */
function metaValues(metas: Element[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const meta of metas) {
    const content = clean(meta.getAttribute("content"));
    if (!content) continue;
    const keys = [
      meta.getAttribute("property"),
      meta.getAttribute("name"),
      meta.getAttribute("itemprop"),
    ];
    for (const raw of keys) {
      // `property` may hold several space-separated names (RDFa).
      for (const key of (raw ?? "").toLowerCase().split(WS_RE)) {
        if (key && !values.has(key)) values.set(key, content);
      }
    }
  }
  return values;
}

function first(values: Map<string, string>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const v = values.get(key);
    if (v) return v;
  }
  return null;
}

/** `<html lang>`, else `<meta http-equiv="content-language">`. */
function langOf(document: Document, metas: Element[], values: Map<string, string>): string | null {
  const lang = clean(document.documentElement?.getAttribute("lang")) ??
    clean(document.documentElement?.getAttribute("xml:lang"));
  if (lang) return lang;
  const equiv = metas.find((m) =>
    (m.getAttribute("http-equiv") ?? "").toLowerCase() === "content-language"
  );
  return clean(equiv?.getAttribute("content")?.split(",")[0]) ?? clean(values.get("language"));
}

/** The `<link rel=canonical>` URL, absolute, or `null`. */
function canonicalOf(link: Element | null, baseUrl: string): string | null {
  const href = link?.getAttribute("href")?.trim();
  if (!href) return null;
  try {
    const url = new URL(href, baseUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Reads the page's metadata. Call it before Readability, which removes scripts.
 *
 * @example
 * ```ts
 * const meta = readMetadata(document, "https://example.com/");
 * meta.lang; // "en"
 * ```
 */
export function readMetadata(document: Document, baseUrl: string): PageMetadata {
  const sources = scan(document);
  const values = metaValues(sources.metas);
  const ld = jsonLd(sources.jsonLd);
  const publisher = ld?.publisher;
  const articleAuthor = values.get("article:author");
  return {
    title: clean(ld?.headline) ?? first(values, META_KEYS.title) ?? clean(document.title) ??
      clean(sources.h1?.textContent),
    byline: names(ld?.author) ?? first(values, META_KEYS.byline) ??
      (articleAuthor && !URL_RE.test(articleAuthor) ? articleAuthor : null),
    site: first(values, ["og:site_name"]) ?? names(publisher) ?? first(values, META_KEYS.site),
    lang: langOf(document, sources.metas, values),
    published: clean(ld?.datePublished) ?? first(values, META_KEYS.published) ??
      clean(sources.pubTime?.getAttribute("datetime")),
    excerpt: clean(ld?.description) ?? first(values, META_KEYS.excerpt),
    canonical: canonicalOf(sources.canonical, baseUrl),
  };
}

/** A date the way it was written, as an ISO 8601 string when it parses; else as written. */
export function toIsoDate(value: string | null): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}
