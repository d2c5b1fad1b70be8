/// <reference lib="dom" />
/**
 * Helpers the result-page parsers share: DOM parsing, text, URLs, dates,
 * and merging duplicate results.
 * @module
 */
// Deferred: evaluated on the first results page parsed, not when a command starts.
import defer * as linkedom from "linkedom";
import { QuarryError } from "../../errors.ts";
import type { Candidate } from "../types.ts";

const SPACES = /\s+/g;
const TRAILING_SLASH = /\/$/;
const REGION_SEPARATOR = /[-_]/;
const HTTP_SCHEME = /^https?:$/;
const ABSOLUTE_OR_PROTOCOL_RELATIVE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
/** "Jan 10, 2020", "January 10, 2020" as printed under results. */
const ENGLISH_DATE = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})$/;
/** "10 Jan 2020", "10 January 2020" (Mojeek, British style). */
const DAY_FIRST_DATE = /^(\d{1,2}) ([A-Za-z]{3})[a-z]*\.? (\d{4})$/;
/** An ISO date, possibly with a time, anywhere in a string. */
const ISO_DATE = /\b(\d{4}-\d{2}-\d{2})(?:T[\d:.]+Z?)?/;

/** Parses an HTML document. */
export function parseDocument(html: string): Document {
  return linkedom.parseHTML(html).document;
}

/** Text of an element with whitespace collapsed; "" for none. */
export function textOf(element: Element | null | undefined): string {
  return (element?.textContent ?? "").replace(SPACES, " ").trim();
}

/** Text of an HTML fragment (API snippets carry `<strong>` and entities). */
export function fragmentText(html: string | undefined | null): string {
  if (!html) return "";
  const { document } = linkedom.parseHTML(
    `<!DOCTYPE html><html><body><div>${html}</div></body></html>`,
  );
  return textOf(document.querySelector("div") as unknown as Element);
}

/**
 * Resolves a link against the page it is on and keeps it only if it is
 * http(s); protocol-relative links (`//host/path`) become absolute.
 */
export function resolveHttpUrl(href: string | null | undefined, base: string): URL | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return HTTP_SCHEME.test(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a link points into the page's own site (`/search?…`, `?q=`), not elsewhere. */
export function isRelativeLink(href: string | null | undefined): boolean {
  return !ABSOLUTE_OR_PROTOCOL_RELATIVE.test((href ?? "").trim());
}

/**
 * A date shown with a result as `YYYY-MM-DD`, or undefined when it is
 * relative ("2 days ago") or unreadable.
 */
export function isoDate(text: string | null | undefined): string | undefined {
  const value = (text ?? "").trim();
  const english = ENGLISH_DATE.exec(value);
  const dayFirst = english ? undefined : DAY_FIRST_DATE.exec(value);
  if (english || dayFirst) {
    const [monthName, day, year] = english
      ? [english[1]!, english[2]!, english[3]!]
      : [dayFirst![2]!, dayFirst![1]!, dayFirst![3]!];
    const month = MONTHS.indexOf(monthName.toLowerCase());
    if (month === -1) return undefined;
    return new Date(Date.UTC(Number(year), month, Number(day))).toISOString().slice(0, 10);
  }
  const iso = ISO_DATE.exec(value);
  return iso && !Number.isNaN(Date.parse(iso[1]!)) ? iso[1] : undefined;
}

/** Key under which two result URLs count as the same page. */
function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href.replace(TRAILING_SLASH, "");
  } catch {
    return url;
  }
}

/** A result as a parser first finds it, before ranks are given. */
export type RawResult = Omit<Candidate, "rank" | "engine">;

/**
 * Merges results that point at the same page (keeping the first, filling a
 * missing snippet or date from the others) and numbers them from 1.
 */
export function finalizeResults(results: RawResult[], engine: string): Candidate[] {
  const byKey = new Map<string, Candidate>();
  for (const r of results) {
    const key = urlKey(r.url);
    const seen = byKey.get(key);
    if (seen) {
      if (!seen.snippet && r.snippet) seen.snippet = r.snippet;
      if (!seen.title && r.title) seen.title = r.title;
      if (seen.published === undefined && r.published !== undefined) seen.published = r.published;
      continue;
    }
    const candidate: Candidate = {
      url: r.url,
      title: r.title,
      snippet: r.snippet,
      engine,
      rank: 0,
    };
    if (r.published !== undefined) candidate.published = r.published;
    byKey.set(key, candidate);
  }
  return [...byKey.values()].map((c, i) => ({ ...c, rank: i + 1 }));
}

/** The error for a page the parser does not recognise: never an empty success. */
export function unrecognised(label: string): QuarryError {
  return new QuarryError(
    "UPSTREAM_ERROR",
    `${label} answered with a page Quarry does not recognise (markup changed or page cut short)`,
    { suggestions: ["Try another engine with --engine", "Report the issue if it persists"] },
  );
}

/** The error for a block page (CAPTCHA, anomaly, "unusual traffic"). */
export function captcha(label: string, what: string): QuarryError {
  return new QuarryError("CAPTCHA", `${label} blocked the request: ${what}`, {
    suggestions: [
      "Wait before searching again",
      "Set SEARXNG_URL or an API key for another engine",
    ],
  });
}

/** Parses JSON from an API, turning a syntax error into UPSTREAM_ERROR. */
export function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new QuarryError("UPSTREAM_ERROR", `${label} answered with malformed JSON`, {
      suggestions: ["Try another engine with --engine"],
      cause: error,
    });
  }
}

/** A plain object, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** A string field, or "". */
export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Region split into country and language: `us-en` (DuckDuckGo) or `en-US` (BCP 47). */
export interface Region {
  country: string;
  lang: string;
}

/** Reads a region code; undefined for none or the world-wide `wt-wt`. */
export function parseRegion(region: string | undefined): Region | undefined {
  if (!region) return undefined;
  const [a = "", b = ""] = region.split(REGION_SEPARATOR);
  if (a.toLowerCase() === "wt") return undefined;
  if (!b) return { country: a.toLowerCase(), lang: a.toLowerCase() };
  // BCP 47 puts the language first and writes the country in capitals.
  const bcp47 = b === b.toUpperCase() && a === a.toLowerCase() && b !== b.toLowerCase();
  return bcp47
    ? { country: b.toLowerCase(), lang: a.toLowerCase() }
    : { country: a.toLowerCase(), lang: b.toLowerCase() };
}
