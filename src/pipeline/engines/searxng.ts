/**
 * A SearXNG instance's JSON API (`/search?format=json`). The instance must
 * list `json` under `search.formats` in its settings; otherwise it answers
 * 403, which is reported as such rather than as a block.
 * @module
 */
import { QuarryError } from "../../errors.ts";
import { renderQuery } from "../query.ts";
import type { Candidate } from "../types.ts";
import {
  asRecord,
  finalizeResults,
  isoDate,
  parseJson,
  parseRegion,
  type RawResult,
  resolveHttpUrl,
  str,
  unrecognised,
} from "./common.ts";
import { engineRequest } from "./http.ts";
import type { Engine } from "./types.ts";

const LABEL = "SearXNG";

/** The error for an instance that has not enabled JSON output. */
export function jsonNotEnabled(base: string): QuarryError {
  return new QuarryError(
    "UPSTREAM_ERROR",
    `SearXNG at ${base} refused format=json (HTTP 403): JSON output is not enabled on that instance`,
    {
      suggestions: [
        "Add `json` to `search.formats` in the instance's settings.yml and restart it",
        "Point SEARXNG_URL at an instance with JSON enabled",
      ],
    },
  );
}

/**
 * Parses a SearXNG JSON answer.
 *
 * @example
 * ```ts
 * const results = parseSearxng('{"results": []}', "http://localhost:8888/search");
 * ```
 */
export function parseSearxng(json: string, baseUrl: string): Candidate[] {
  const body = asRecord(parseJson(json, LABEL));
  if (!body || !Array.isArray(body.results)) throw unrecognised(LABEL);
  const raw: RawResult[] = [];
  for (const entry of body.results) {
    const r = asRecord(entry);
    const url = resolveHttpUrl(str(r?.url), baseUrl);
    if (!r || !url) continue;
    const item: RawResult = {
      url: url.href,
      title: str(r.title).trim(),
      snippet: str(r.content).trim(),
    };
    const published = isoDate(str(r.publishedDate));
    if (published) item.published = published;
    raw.push(item);
  }
  return finalizeResults(raw, "searxng");
}

/** SearXNG JSON API at SEARXNG_URL. */
export const searxng: Engine = {
  name: "searxng",
  operators: true,
  pageSize: 10,
  available: (config) => config.urls.searxng ? true : "SEARXNG_URL is not set",
  async search(query, options, deps) {
    const base = deps.config.urls.searxng;
    if (!base) throw new QuarryError("BAD_INPUT", "SEARXNG_URL is not set");
    const params = new URLSearchParams({
      q: renderQuery(query),
      format: "json",
      pageno: String(options.page ?? 1),
      safesearch: "0",
    });
    const region = parseRegion(options.region);
    if (region) params.set("language", `${region.lang}-${region.country.toUpperCase()}`);
    if (options.time) params.set("time_range", options.time);
    const url = `${base}/search?${params}`;
    const res = await engineRequest(LABEL, url, deps, {
      headers: { accept: "application/json" },
      onStatus: (r) => r.status === 403 ? jsonNotEnabled(base) : undefined,
    });
    return parseSearxng(res.body, url);
  },
};
