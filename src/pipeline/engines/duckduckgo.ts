/// <reference lib="dom" />
/**
 * DuckDuckGo's HTML endpoint (`html.duckduckgo.com/html/`): a POST form,
 * results in `#links .result`, links wrapped in `//duckduckgo.com/l/?uddg=…`.
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

const LABEL = "DuckDuckGo";

/** DuckDuckGo's `df` values. */
export const DDG_TIME: Readonly<Record<TimeRange, string>> = {
  day: "d",
  week: "w",
  month: "m",
  year: "y",
};

/** Results on one page of the HTML and Lite endpoints. */
export const DDG_PAGE = 10;

/** Marks of the anomaly (bot check) page DuckDuckGo serves instead of results. */
const ANOMALY_SELECTORS = [
  ".anomaly-modal",
  ".anomaly-modal__modal",
  "#challenge-form",
  "form[action*='anomaly']",
  "script[src*='anomaly.js']",
].join(", ");

/** The redirect path DuckDuckGo wraps result links in. */
const REDIRECT_PATH = /^\/l\/?$/;
/** Ad clicks go through `y.js`; they are never organic results. */
const AD_PATH = /\/y\.js$/;

/** Why a DuckDuckGo page is a bot check, or undefined when it is not. */
export function ddgBlockReason(doc: Document): string | undefined {
  return doc.querySelector(ANOMALY_SELECTORS) ? "anomaly page (bot check)" : undefined;
}

/**
 * The target of a DuckDuckGo result link: `//duckduckgo.com/l/?uddg=<url>`
 * is unwrapped, relative and protocol-relative links made absolute, ad
 * links (`y.js`) dropped (undefined).
 */
export function unwrapDdgLink(href: string | null | undefined, base: string): string | undefined {
  const url = resolveHttpUrl(href, base);
  if (!url) return undefined;
  if (AD_PATH.test(url.pathname)) return undefined;
  if (REDIRECT_PATH.test(url.pathname) && url.searchParams.has("uddg")) {
    const target = resolveHttpUrl(url.searchParams.get("uddg"), base);
    return target && !AD_PATH.test(target.pathname) ? target.href : undefined;
  }
  return url.href;
}

/**
 * Parses a DuckDuckGo HTML result page.
 *
 * @example
 * ```ts
 * const results = parseDuckDuckGo(html, "https://html.duckduckgo.com/html/");
 * ```
 */
export function parseDuckDuckGo(html: string, baseUrl: string): Candidate[] {
  const doc = parseDocument(html);
  const block = ddgBlockReason(doc);
  if (block) throw captcha(LABEL, block);
  const container = doc.querySelector("#links");
  const noResults = doc.querySelector(".no-results, .result--no-result");
  if (!container) {
    if (noResults) return [];
    throw unrecognised(LABEL);
  }
  const raw: RawResult[] = [];
  const blocks = container.querySelectorAll(".result");
  for (const result of blocks) {
    if (result.classList.contains("result--ad")) continue;
    const anchor = result.querySelector(".result__title a, a.result__a");
    const url = unwrapDdgLink(anchor?.getAttribute("href"), baseUrl);
    if (!anchor || !url) continue;
    const item: RawResult = {
      url,
      title: textOf(anchor),
      snippet: textOf(result.querySelector(".result__snippet")),
    };
    // Some results carry a date next to the displayed URL.
    const published = isoDate(
      textOf(result.querySelector(".result__extras__url > span:last-child")),
    );
    if (published) item.published = published;
    raw.push(item);
  }
  if (raw.length === 0 && !noResults && blocks.length > 0) throw unrecognised(LABEL);
  return finalizeResults(raw, "duckduckgo");
}

/** DuckDuckGo HTML endpoint. */
export const duckduckgo: Engine = {
  name: "duckduckgo",
  operators: true,
  pageSize: DDG_PAGE,
  available: () => true,
  async search(query, options, deps) {
    const form = new URLSearchParams({
      q: renderQuery(query),
      b: "",
      kl: ddgRegion(options.region),
    });
    if (options.time) form.set("df", DDG_TIME[options.time]);
    const page = options.page ?? 1;
    if (page > 1) {
      // The HTML endpoint pages by offset: `s` the first result, `dc` the one after.
      form.set("s", String((page - 1) * DDG_PAGE));
      form.set("dc", String((page - 1) * DDG_PAGE + 1));
    }
    const url = `${deps.config.urls.duckduckgo}/html/`;
    const res = await engineRequest(LABEL, url, deps, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    // The anomaly page comes with HTTP 202 even when its markup changes.
    if (res.status === 202) throw captcha(LABEL, "anomaly page (HTTP 202)");
    return parseDuckDuckGo(res.body, url);
  },
};

/** DuckDuckGo's `kl` region code (`us-en`), `wt-wt` meaning no region. */
export function ddgRegion(region: string | undefined): string {
  const r = parseRegion(region);
  return r ? `${r.country}-${r.lang}` : "wt-wt";
}
