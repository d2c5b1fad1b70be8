/// <reference lib="dom" />
/**
 * JSON-LD (schema.org) in a page: the article object, wherever it sits
 * (top level, arrays, `@graph`), and the names of its people.
 * @module
 */

/** schema.org types whose JSON-LD describes the article itself. */
const ARTICLE_TYPE_RE =
  /Article|BlogPosting|Report|WebPage|Posting|Story|Recipe|Review|CreativeWork|Thesis/;
const URL_RE = /^https?:\/\//i;
const WS_RE = /\s+/g;
/** Old CMSs wrap JSON-LD in CDATA markers. */
const CDATA_RE = /^\s*<!\[CDATA\[|\]\]>\s*$/g;

/** Collapses whitespace; `null` for empty. */
export function clean(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const s = value.replace(WS_RE, " ").trim();
  return s ? s : null;
}

/** Names of a JSON-LD person/organisation value (string, object or array). */
export function names(value: unknown): string | null {
  if (typeof value === "string") return URL_RE.test(value) ? null : clean(value);
  if (Array.isArray(value)) {
    const all = value.map(names).filter((n): n is string => n !== null);
    return all.length ? all.join(", ") : null;
  }
  if (value && typeof value === "object") return clean((value as Record<string, unknown>).name);
  return null;
}

/** Every object in a JSON-LD value, following arrays and `@graph`. */
function* ldObjects(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) {
    for (const v of value) yield* ldObjects(v);
  } else if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    yield obj;
    if (obj["@graph"]) yield* ldObjects(obj["@graph"]);
  }
}

function typeOf(obj: Record<string, unknown>): string {
  const t = obj["@type"];
  return Array.isArray(t) ? t.join(" ") : typeof t === "string" ? t : "";
}

/** The article-like JSON-LD object of the page, if any. */
export function jsonLd(scripts: Element[]): Record<string, unknown> | null {
  for (const script of scripts) {
    let parsed: unknown;
    try {
      parsed = JSON.parse((script.textContent ?? "").replace(CDATA_RE, ""));
    } catch {
      continue; // Broken JSON-LD is common; the page may still have <meta> tags.
    }
    for (const obj of ldObjects(parsed)) {
      if (ARTICLE_TYPE_RE.test(typeOf(obj)) && (obj.headline || obj.datePublished || obj.author)) {
        return obj;
      }
    }
  }
  return null;
}
