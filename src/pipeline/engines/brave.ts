/**
 * The Brave Search API (`/res/v1/web/search`, `X-Subscription-Token`).
 * Descriptions carry `<strong>` and HTML entities; they are turned into text.
 * @module
 */
import { QuarryError } from "../../errors.ts";
import { renderQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import {
  asRecord,
  finalizeResults,
  fragmentText,
  isoDate,
  parseJson,
  parseRegion,
  type RawResult,
  resolveHttpUrl,
  str,
  unrecognised,
} from "./common.ts";
import { engineRequest, type EngineResponse } from "./http.ts";
import type { Engine, TimeRange } from "./types.ts";

const LABEL = "Brave Search API";
const BRAVE_TIME: Readonly<Record<TimeRange, string>> = {
  day: "pd",
  week: "pw",
  month: "pm",
  year: "py",
};
/** Brave returns at most 20 web results a request. */
const MAX_COUNT = 20;

/** A key the API refuses is the user's to fix, not a block. */
export function keyRejected(label: string, envName: string, res: EngineResponse) {
  if (res.status !== 401 && res.status !== 403) return undefined;
  return new QuarryError(
    "MISSING_API_KEY",
    `${label} rejected the key in ${envName} (HTTP ${res.status})`,
    {
      suggestions: [`Check ${envName}`, "Try another engine with --engine"],
    },
  );
}

/**
 * Parses a Brave Search API answer (`type: "search"`).
 *
 * @example
 * ```ts
 * const results = parseBrave('{"type":"search","web":{"results":[]}}', "https://api.search.brave.com/");
 * ```
 */
export function parseBrave(json: string, baseUrl: string): Candidate[] {
  const body = asRecord(parseJson(json, LABEL));
  if (!body || body.type !== "search") throw unrecognised(LABEL);
  const web = asRecord(body.web);
  // Brave leaves `web` out when nothing matched.
  if (!web) return [];
  if (!Array.isArray(web.results)) throw unrecognised(LABEL);
  const raw: RawResult[] = [];
  for (const entry of web.results) {
    const r = asRecord(entry);
    const url = resolveHttpUrl(str(r?.url), baseUrl);
    if (!r || !url) continue;
    const item: RawResult = {
      url: url.href,
      title: fragmentText(str(r.title)),
      snippet: fragmentText(str(r.description)),
    };
    const published = isoDate(str(r.page_age));
    if (published) item.published = published;
    raw.push(item);
  }
  return finalizeResults(raw, "brave");
}

/** Brave Search API (needs BRAVE_API_KEY). */
export const brave: Engine = {
  name: "brave",
  needsKey: "BRAVE_API_KEY",
  operators: true,
  pageSize: MAX_COUNT,
  available: (config) => config.keys.brave ? true : "BRAVE_API_KEY is not set",
  async search(query, options, deps) {
    const key = deps.config.keys.brave;
    if (!key) throw new QuarryError("MISSING_API_KEY", "BRAVE_API_KEY is not set");
    const params = new URLSearchParams({
      q: renderQuery(query),
      count: String(Math.min(MAX_COUNT, options.count)),
    });
    const region = parseRegion(options.region);
    if (region) {
      params.set("country", region.country.toUpperCase());
      params.set("search_lang", region.lang);
    }
    // The API's offset counts pages, not results.
    if ((options.page ?? 1) > 1) params.set("offset", String((options.page ?? 1) - 1));
    if (options.time) params.set("freshness", BRAVE_TIME[options.time]);
    const url = `${deps.config.urls.brave}/res/v1/web/search?${params}`;
    const res = await engineRequest(LABEL, url, deps, {
      headers: { accept: "application/json", "x-subscription-token": key },
      onStatus: (r) => keyRejected(LABEL, "BRAVE_API_KEY", r),
    });
    return parseBrave(res.body, url);
  },
};
