/// <reference lib="dom" />
/**
 * Google's HTML result page, best effort: Google changes its markup often
 * and blocks scripts quickly. Results are `a > h3` inside `#search`; links
 * may go through `/url?q=`. The "unusual traffic" CAPTCHA and the "enable
 * JavaScript" wall are blocks, never empty answers.
 * @module
 */
import { renderQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import {
  captcha,
  finalizeResults,
  isoDate,
  isRelativeLink,
  parseDocument,
  parseRegion,
  type RawResult,
  resolveHttpUrl,
  textOf,
  unrecognised,
} from "./common.ts";
import { engineRequest } from "./http.ts";
import type { Engine, TimeRange } from "./types.ts";

const LABEL = "Google";
const GOOGLE_TIME: Readonly<Record<TimeRange, string>> = {
  day: "qdr:d",
  week: "qdr:w",
  month: "qdr:m",
  year: "qdr:y",
};
const CAPTCHA_SELECTORS = "#captcha-form, .g-recaptcha, form[action*='sorry']";
const UNUSUAL_TRAFFIC = /unusual traffic from your computer network/i;
const ENABLE_JS_SELECTORS =
  "meta[http-equiv='refresh'][content*='enablejs'], a[href*='/httpservice/retry/enablejs']";
const ENABLE_JS_TEXT = /(?:enable|turn on) javascript/i;
const NO_MATCH_TEXT = /did not match any documents/i;
const AD_AREAS = "#tads, #tadsb, #bottomads, [data-text-ad]";
/** Result blocks across Google's markup generations (desktop, 2019, no-JS). */
const RESULT_BLOCKS = "div.g, div.MjjYud, div.Gx5Zad";
const SNIPPET_SELECTORS = ".VwiC3b, .st, [data-sncf='1'], .IsZvec, " +
  "div[style*='-webkit-line-clamp'], .BNeawe.s3v9rd";
/** Google's own search host; other subdomains (Arts & Culture, Books) are real results. */
const GOOGLE_SEARCH_HOST = /^(?:www\.)?google\.[a-z.]+$/;
/** Date or count printed ahead of a snippet ("Mar 5, 2019 - ", "2335 results - "). */
const SNIPPET_PREFIX = ".st > span.f, .LEwnzc";
const PREFIX_TRAILER = /\s*[-—–]\s*$/;
const REDIRECT_PATH = /^\/url$/;

/** Why a Google page is a block, or undefined. */
function blockReason(doc: Document, container: Element | null): string | undefined {
  if (doc.querySelector(CAPTCHA_SELECTORS)) return "CAPTCHA (unusual traffic)";
  if (doc.querySelector(ENABLE_JS_SELECTORS)) return "page requires JavaScript";
  // Reading the whole page's text is slow on a big result page: only without results markup.
  if (container) return undefined;
  const text = textOf(doc.body);
  if (UNUSUAL_TRAFFIC.test(text)) return "CAPTCHA (unusual traffic)";
  if (ENABLE_JS_TEXT.test(text)) return "page requires JavaScript";
  return undefined;
}

/** The target of a Google result link; links back into Google are dropped. */
export function unwrapGoogleLink(
  href: string | null | undefined,
  base: string,
): string | undefined {
  const url = resolveHttpUrl(href, base);
  if (!url) return undefined;
  const internal = isRelativeLink(href) || GOOGLE_SEARCH_HOST.test(url.hostname);
  if (!internal) return url.href;
  if (!REDIRECT_PATH.test(url.pathname)) return undefined;
  const target = resolveHttpUrl(url.searchParams.get("q") ?? url.searchParams.get("url"), base);
  return target && !GOOGLE_SEARCH_HOST.test(target.hostname) ? target.href : undefined;
}

/** Snippet and date of the result a link belongs to. */
function snippetOf(anchor: Element): { snippet: string; published?: string } {
  // Walk up from the link until a block that holds a snippet.
  let block: Element | null = anchor.closest(RESULT_BLOCKS);
  for (let el: Element | null = anchor, i = 0; !block && el && i < 6; i++) {
    el = el.parentElement;
    if (el?.querySelector(SNIPPET_SELECTORS)) block = el;
  }
  const snippet = block?.querySelector(SNIPPET_SELECTORS);
  const prefix = snippet?.querySelector(SNIPPET_PREFIX);
  const published = isoDate(textOf(prefix).replace(PREFIX_TRAILER, ""));
  prefix?.remove();
  return published ? { snippet: textOf(snippet), published } : { snippet: textOf(snippet) };
}

/**
 * Parses a Google result page.
 *
 * @example
 * ```ts
 * const results = parseGoogle(html, "https://www.google.com/search");
 * ```
 */
export function parseGoogle(html: string, baseUrl: string): Candidate[] {
  const doc = parseDocument(html);
  const container = doc.querySelector("#search") ?? doc.querySelector("#main");
  const block = blockReason(doc, container);
  if (block) throw captcha(LABEL, block);
  if (!container) throw unrecognised(LABEL);
  const raw: RawResult[] = [];
  for (const heading of container.querySelectorAll("a h3")) {
    const anchor = heading.closest("a");
    if (!anchor || anchor.closest(AD_AREAS)) continue;
    const url = unwrapGoogleLink(anchor.getAttribute("href"), baseUrl);
    if (!url) continue;
    raw.push({ url, title: textOf(heading), ...snippetOf(anchor) });
  }
  if (raw.length === 0 && !NO_MATCH_TEXT.test(textOf(doc.body))) throw unrecognised(LABEL);
  return finalizeResults(raw, "google");
}

/** Google HTML search (best effort; not in the default chain). */
export const google: Engine = {
  name: "google",
  operators: true,
  available: () => true,
  async search(query, options, deps) {
    const params = new URLSearchParams({
      q: renderQuery(query),
      num: String(Math.min(100, Math.max(10, options.count))),
    });
    const region = parseRegion(options.region);
    if (region) {
      params.set("hl", region.lang);
      params.set("gl", region.country);
    }
    if (options.time) params.set("tbs", GOOGLE_TIME[options.time]);
    const url = `${deps.config.urls.google}/search?${params}`;
    const res = await engineRequest(LABEL, url, deps);
    return parseGoogle(res.body, url);
  },
};
