/// <reference lib="dom" />
/**
 * Brave Search's HTML result page (keyless; `brave` is the API): organic
 * results are `#results .snippet[data-type="web"]`, the first link of the
 * block is the result, its title `.title`, its text `.generic-snippet
 * .content` (or `.snippet-description` on older pages).
 * @module
 */
import { renderQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import {
  captcha,
  finalizeResults,
  isoDate,
  parseDocument,
  parseRegion,
  type RawResult,
  resolveHttpUrl,
  textOf,
  unrecognised,
} from "./common.ts";
import { engineRequest } from "./http.ts";
import type { Engine, TimeRange } from "./types.ts";

const LABEL = "Brave Search";
/** Results on one page. */
const PAGE_SIZE = 20;
const BLOCK_TEXT = /captcha|verify you are (?:a )?human|unusual (?:traffic|activity)/i;
const NO_RESULTS_TEXT = /no results found|not many great matches/i;
/** Dates Brave prints before a snippet: "March 10, 2024 -". */
const LEADING_DATE = /^([A-Z][a-z]+\.? \d{1,2}, \d{4})\s*[-–]/;
const BRAVE_HTML_TIME: Readonly<Record<TimeRange, string>> = {
  day: "pd",
  week: "pw",
  month: "pm",
  year: "py",
};

/**
 * Parses a Brave Search result page.
 *
 * @example
 * ```ts
 * const results = parseBraveHtml(html, "https://search.brave.com/search");
 * ```
 */
export function parseBraveHtml(html: string, baseUrl: string): Candidate[] {
  const doc = parseDocument(html);
  const container = doc.querySelector("#results");
  if (!container) {
    if (BLOCK_TEXT.test(textOf(doc.body) + textOf(doc.querySelector("title")))) {
      throw captcha(LABEL, "CAPTCHA page");
    }
    throw unrecognised(LABEL);
  }
  const raw: RawResult[] = [];
  for (const block of container.querySelectorAll(".snippet[data-type='web']")) {
    const anchor = block.querySelector(".result-content a[href], a[href]");
    const url = resolveHttpUrl(anchor?.getAttribute("href"), baseUrl);
    if (!anchor || !url) continue;
    const titleEl = anchor.querySelector(".title") ?? block.querySelector(".title");
    const text = textOf(
      block.querySelector(".generic-snippet .content, .snippet-description"),
    );
    const date = LEADING_DATE.exec(text);
    const item: RawResult = {
      url: url.href,
      title: titleEl?.getAttribute("title") || textOf(titleEl) || textOf(anchor),
      snippet: date ? text.slice(date[0].length).trim() : text,
    };
    const published = date ? isoDate(date[1]) : undefined;
    if (published) item.published = published;
    raw.push(item);
  }
  if (raw.length === 0) {
    if (NO_RESULTS_TEXT.test(textOf(container))) return [];
    throw unrecognised(LABEL);
  }
  return finalizeResults(raw, "brave-html");
}

/** Brave Search's HTML page, without a key. */
export const braveHtml: Engine = {
  name: "brave-html",
  operators: true,
  pageSize: PAGE_SIZE,
  available: () => true,
  async search(query, options, deps) {
    const params = new URLSearchParams({ q: renderQuery(query), source: "web" });
    const region = parseRegion(options.region);
    if (region) params.set("country", region.country);
    if (options.time) params.set("tf", BRAVE_HTML_TIME[options.time]);
    // The page counts its offset in pages.
    if ((options.page ?? 1) > 1) params.set("offset", String((options.page ?? 1) - 1));
    const url = `${deps.config.urls.braveHtml}/search?${params}`;
    const res = await engineRequest(LABEL, url, deps);
    return parseBraveHtml(res.body, url);
  },
};
