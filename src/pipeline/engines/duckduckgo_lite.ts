/// <reference lib="dom" />
/**
 * DuckDuckGo Lite (`lite.duckduckgo.com/lite/`): a table of results, each a
 * row with `a.result-link`, then a row with `td.result-snippet`. Sponsored
 * rows (`tr.result-sponsored`) are ads.
 * @module
 */
import { renderQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import {
  captcha,
  finalizeResults,
  parseDocument,
  type RawResult,
  textOf,
  unrecognised,
} from "./common.ts";
import { DDG_PAGE, DDG_TIME, ddgBlockReason, ddgRegion, unwrapDdgLink } from "./duckduckgo.ts";
import { engineRequest } from "./http.ts";
import type { Engine } from "./types.ts";

const LABEL = "DuckDuckGo Lite";
/** Lite says so in words when nothing matched; it has no class for it. */
const NO_RESULTS_TEXT = /\bno (?:more )?results\b/i;

/** The snippet of the result whose link sits in `row`: a later row, before the next link. */
function snippetAfter(row: Element): string {
  for (let next = row.nextElementSibling; next; next = next.nextElementSibling) {
    if (next.querySelector("a.result-link")) break;
    const snippet = next.querySelector("td.result-snippet");
    if (snippet) return textOf(snippet);
  }
  return "";
}

/**
 * Parses a DuckDuckGo Lite result page.
 *
 * @example
 * ```ts
 * const results = parseDuckDuckGoLite(html, "https://lite.duckduckgo.com/lite/");
 * ```
 */
export function parseDuckDuckGoLite(html: string, baseUrl: string): Candidate[] {
  const doc = parseDocument(html);
  const block = ddgBlockReason(doc);
  if (block) throw captcha(LABEL, block);
  const raw: RawResult[] = [];
  const links = doc.querySelectorAll("a.result-link");
  for (const link of links) {
    const row = link.closest("tr");
    if (row?.classList.contains("result-sponsored")) continue;
    const url = unwrapDdgLink(link.getAttribute("href"), baseUrl);
    if (!url) continue;
    raw.push({ url, title: textOf(link), snippet: row ? snippetAfter(row) : "" });
  }
  if (links.length === 0) {
    // A real empty answer still has the search form and says "No results".
    const isLite = doc.querySelector("form input[name='q']") !== null;
    if (isLite && NO_RESULTS_TEXT.test(textOf(doc.body))) return [];
    throw unrecognised(LABEL);
  }
  return finalizeResults(raw, "duckduckgo-lite");
}

/** DuckDuckGo Lite endpoint. */
export const duckduckgoLite: Engine = {
  name: "duckduckgo-lite",
  operators: true,
  pageSize: DDG_PAGE,
  available: () => true,
  async search(query, options, deps) {
    const form = new URLSearchParams({ q: renderQuery(query), kl: ddgRegion(options.region) });
    if (options.time) form.set("df", DDG_TIME[options.time]);
    const page = options.page ?? 1;
    if (page > 1) form.set("s", String((page - 1) * DDG_PAGE));
    const url = `${deps.config.urls.duckduckgoLite}/lite/`;
    const res = await engineRequest(LABEL, url, deps, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    if (res.status === 202) throw captcha(LABEL, "anomaly page (HTTP 202)");
    return parseDuckDuckGoLite(res.body, url);
  },
};
