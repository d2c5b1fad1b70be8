/// <reference lib="dom" />
/**
 * Startpage's HTML result page (Google results, served privately): each
 * organic result is a `.result` block (`.bannerad` blocks are ads), title
 * link `a.result-title`, snippet `p.description`. Links are direct.
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
import type { Engine } from "./types.ts";

const LABEL = "Startpage";
/** Results on one page. */
const PAGE_SIZE = 10;
/** Startpage sends suspected bots to a CAPTCHA form under `/sp/captcha`. */
const CAPTCHA_SELECTORS = "form[action*='captcha'], #captcha, .captcha-page";
const BLOCK_TEXT = /unusual (?:traffic|activity)|verify you are (?:a )?human|are you a robot/i;
const NO_RESULTS_TEXT = /did not match any|no results found/i;
/** Google-style dates that open a snippet: "1 Jan 2024 ... ". */
const LEADING_DATE = /^(\d{1,2} [A-Z][a-z]{2,8}\.? \d{4}) \.\.\.\s*/;

/**
 * Parses a Startpage result page.
 *
 * @example
 * ```ts
 * const results = parseStartpage(html, "https://www.startpage.com/sp/search");
 * ```
 */
export function parseStartpage(html: string, baseUrl: string): Candidate[] {
  const doc = parseDocument(html);
  if (doc.querySelector(CAPTCHA_SELECTORS)) throw captcha(LABEL, "CAPTCHA page");
  const blocks = [...doc.querySelectorAll(".result")].filter((el) =>
    !el.classList.contains("bannerad") && el.querySelector("a.result-title")
  );
  if (blocks.length === 0) {
    const text = textOf(doc.body);
    if (BLOCK_TEXT.test(text)) throw captcha(LABEL, "bot check");
    if (doc.querySelector("input[name='query'], input[name='q']") && NO_RESULTS_TEXT.test(text)) {
      return [];
    }
    throw unrecognised(LABEL);
  }
  const raw: RawResult[] = [];
  for (const block of blocks) {
    const anchor = block.querySelector("a.result-title");
    const url = resolveHttpUrl(anchor?.getAttribute("href"), baseUrl);
    if (!anchor || !url) continue;
    const text = textOf(block.querySelector("p.description"));
    const date = LEADING_DATE.exec(text);
    const item: RawResult = {
      url: url.href,
      title: textOf(anchor.querySelector(".wgl-title") ?? anchor),
      snippet: date ? text.slice(date[0].length) : text,
    };
    const published = date ? isoDate(date[1]) : undefined;
    if (published) item.published = published;
    raw.push(item);
  }
  if (raw.length === 0) throw unrecognised(LABEL);
  return finalizeResults(raw, "startpage");
}

/** Startpage HTML search (best effort: it may ask for a CAPTCHA). */
export const startpage: Engine = {
  name: "startpage",
  operators: true,
  pageSize: PAGE_SIZE,
  available: () => true,
  async search(query, options, deps) {
    const params = new URLSearchParams({ q: renderQuery(query), cat: "web" });
    const region = parseRegion(options.region);
    if (region) params.set("qloc", region.country);
    if (options.time) params.set("with_date", options.time[0]!);
    if ((options.page ?? 1) > 1) params.set("page", String(options.page));
    const url = `${deps.config.urls.startpage}/sp/search?${params}`;
    const res = await engineRequest(LABEL, url, deps);
    return parseStartpage(res.body, url);
  },
};
