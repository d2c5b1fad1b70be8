/// <reference lib="dom" />
/**
 * Bing's HTML result page: organic results are `#b_results > li.b_algo`,
 * their links go through `bing.com/ck/a?…&u=a1<base64url target>`. Ads live
 * in `li.b_ad` and are never read.
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

const LABEL = "Bing";
/** Bing's `filters` for a time range; it has no preset for a year. */
const BING_TIME: Readonly<Partial<Record<TimeRange, string>>> = {
  day: 'ex1:"ez1"',
  week: 'ex1:"ez2"',
  month: 'ex1:"ez3"',
};
/** Bing's challenge page (Cloudflare Turnstile or its own CAPTCHA). */
const CHALLENGE_SELECTORS = ".captcha, #turnstile-widget, #b_captcha, form[action*='captcha']";
/** Labels inside a snippet that are not part of its text. */
const SNIPPET_NOISE = ".algoSlug_icon, .news_dt, .b_adSlug";
const SNIPPET_SELECTORS = ".b_caption p, p.b_lineclamp1, p.b_lineclamp2, p.b_lineclamp3, " +
  "p.b_lineclamp4, p.b_algoSlug, p.b_paractl, .b_snippet";
/** What is left of "Jan 10, 2020 · text" once the date is taken out. */
const LEADING_DOT = /^[·\s]+/;
const BING_HOST = /(^|\.)bing\.com$/;
const BASE64URL_DASH = /-/g;
const BASE64URL_UNDERSCORE = /_/g;

function decodeBase64Url(text: string): string | undefined {
  const b64 = text.replace(BASE64URL_DASH, "+").replace(BASE64URL_UNDERSCORE, "/");
  try {
    const bytes = Uint8Array.from(
      atob(b64 + "=".repeat((4 - b64.length % 4) % 4)),
      (c) => c.charCodeAt(0),
    );
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The target of a Bing result link: `…/ck/a?…&u=a1<base64url>` decoded,
 * other absolute links kept, links back into Bing itself dropped.
 */
export function decodeBingLink(href: string | null | undefined, base: string): string | undefined {
  const url = resolveHttpUrl(href, base);
  if (!url) return undefined;
  if (isRelativeLink(href) || BING_HOST.test(url.hostname)) {
    const u = url.searchParams.get("u");
    if (!u?.startsWith("a1")) return undefined;
    return resolveHttpUrl(decodeBase64Url(u.slice(2)), base)?.href;
  }
  return url.href;
}

/**
 * Parses a Bing result page.
 *
 * @example
 * ```ts
 * const results = parseBing(html, "https://www.bing.com/search");
 * ```
 */
export function parseBing(html: string, baseUrl: string): Candidate[] {
  const doc = parseDocument(html);
  if (doc.querySelector(CHALLENGE_SELECTORS)) throw captcha(LABEL, "challenge page");
  const container = doc.querySelector("#b_results");
  if (!container) throw unrecognised(LABEL);
  const raw: RawResult[] = [];
  for (const li of container.querySelectorAll(":scope > li.b_algo")) {
    // Newer pages mark ads placed among organic results with an "Ad" label.
    if (li.querySelector(".b_adSlug, .b_adProvider")) continue;
    const anchor = li.querySelector("h2 a");
    const url = decodeBingLink(anchor?.getAttribute("href"), baseUrl);
    if (!anchor || !url) continue;
    const date = isoDate(textOf(li.querySelector(".news_dt")));
    for (const noise of li.querySelectorAll(SNIPPET_NOISE)) noise.remove();
    const snippet = [...li.querySelectorAll(SNIPPET_SELECTORS)].map(textOf).find(Boolean) ?? "";
    const item: RawResult = {
      url,
      title: textOf(anchor),
      snippet: snippet.replace(LEADING_DOT, ""),
    };
    if (date) item.published = date;
    raw.push(item);
  }
  if (raw.length === 0 && !container.querySelector("li.b_no")) throw unrecognised(LABEL);
  return finalizeResults(raw, "bing");
}

/** Bing HTML search. */
export const bing: Engine = {
  name: "bing",
  operators: true,
  pageSize: 10,
  available: () => true,
  async search(query, options, deps) {
    const params = new URLSearchParams({
      q: renderQuery(query),
      count: String(Math.min(50, Math.max(10, options.count))),
    });
    const region = parseRegion(options.region);
    if (region) {
      params.set("cc", region.country);
      params.set("setlang", region.lang);
    }
    const page = options.page ?? 1;
    if (page > 1) params.set("first", String((page - 1) * Number(params.get("count")) + 1));
    const filter = options.time ? BING_TIME[options.time] : undefined;
    if (filter) params.set("filters", filter);
    const url = `${deps.config.urls.bing}/search?${params}`;
    const res = await engineRequest(LABEL, url, deps);
    return parseBing(res.body, url);
  },
};
