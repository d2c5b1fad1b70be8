/// <reference lib="dom" />
/**
 * Mojeek's HTML result page: `ul.results-standard > li`, title link
 * `a.title`, snippet `p.s`. Links are direct.
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

const LABEL = "Mojeek";
/** Mojeek's block page names the cause in words rather than markup. */
const BLOCK_TEXT = /automated queries|unusual (?:traffic|activity)|verify you are (?:a )?human/i;
const NO_RESULTS_TEXT = /no pages found/i;

/**
 * Parses a Mojeek result page.
 *
 * @example
 * ```ts
 * const results = parseMojeek(html, "https://www.mojeek.com/search");
 * ```
 */
export function parseMojeek(html: string, baseUrl: string): Candidate[] {
  const doc = parseDocument(html);
  const list = doc.querySelector("ul.results-standard");
  if (!list) {
    const text = textOf(doc.body);
    if (BLOCK_TEXT.test(text)) throw captcha(LABEL, "automated-query check");
    if (doc.querySelector("form input[name='q']") && NO_RESULTS_TEXT.test(text)) return [];
    throw unrecognised(LABEL);
  }
  const raw: RawResult[] = [];
  for (const li of list.querySelectorAll(":scope > li")) {
    const anchor = li.querySelector("a.title") ?? li.querySelector("h2 a");
    const url = resolveHttpUrl(anchor?.getAttribute("href"), baseUrl);
    if (!anchor || !url) continue;
    const item: RawResult = {
      url: url.href,
      title: textOf(anchor),
      snippet: textOf(li.querySelector("p.s")),
    };
    const published = isoDate(textOf(li.querySelector(".mdate")));
    if (published) item.published = published;
    raw.push(item);
  }
  if (raw.length === 0) throw unrecognised(LABEL);
  return finalizeResults(raw, "mojeek");
}

/** Mojeek HTML search. */
export const mojeek: Engine = {
  name: "mojeek",
  operators: true,
  pageSize: 10,
  available: () => true,
  async search(query, options, deps) {
    const params = new URLSearchParams({ q: renderQuery(query) });
    const region = parseRegion(options.region);
    if (region) {
      // Mojeek biases (rather than filters) by language and region.
      params.set("lb", region.lang);
      params.set("arc", region.country);
    }
    const page = options.page ?? 1;
    if (page > 1) params.set("s", String((page - 1) * 10 + 1));
    const url = `${deps.config.urls.mojeek}/search?${params}`;
    const res = await engineRequest(LABEL, url, deps);
    return parseMojeek(res.body, url);
  },
};
