/**
 * The Exa API (`POST /search` with `contents.text`, `x-api-key`). Exa takes
 * no operators in the query text; `site:` goes into `includeDomains` and
 * `-site:` into `excludeDomains`, the rest is enforced afterwards.
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
import { keyRejected } from "./brave.ts";
import { engineRequest } from "./http.ts";
import type { Engine, TimeRange } from "./types.ts";

const LABEL = "Exa API";
const DAY_MS = 86_400_000;
const TIME_DAYS: Readonly<Record<TimeRange, number>> = { day: 1, week: 7, month: 31, year: 366 };
/** Characters of page text asked for; the snippet is cut from it. */
const TEXT_CHARS = 1000;
const SNIPPET_CHARS = 300;
const SPACES = /\s+/g;

function snippetFrom(text: string): string {
  const flat = text.replace(SPACES, " ").trim();
  return flat.length <= SNIPPET_CHARS ? flat : `${flat.slice(0, SNIPPET_CHARS).trimEnd()}…`;
}

/**
 * Parses an Exa `/search` answer.
 *
 * @example
 * ```ts
 * const results = parseExa('{"results": []}', "https://api.exa.ai/search");
 * ```
 */
export function parseExa(json: string, baseUrl: string): Candidate[] {
  const body = asRecord(parseJson(json, LABEL));
  if (!body || !Array.isArray(body.results)) throw unrecognised(LABEL);
  const raw: RawResult[] = [];
  for (const entry of body.results) {
    const r = asRecord(entry);
    const url = resolveHttpUrl(str(r?.url), baseUrl);
    if (!r || !url) continue;
    const highlights = Array.isArray(r.highlights) ? r.highlights.map(str).join(" … ") : "";
    const item: RawResult = {
      url: url.href,
      title: str(r.title).trim(),
      snippet: snippetFrom(highlights || str(r.summary) || str(r.text)),
    };
    const published = isoDate(str(r.publishedDate));
    if (published) item.published = published;
    raw.push(item);
  }
  return finalizeResults(raw, "exa");
}

/** Exa search API (needs EXA_API_KEY). */
export const exa: Engine = {
  name: "exa",
  needsKey: "EXA_API_KEY",
  operators: false,
  available: (config) => config.keys.exa ? true : "EXA_API_KEY is not set",
  async search(query, options, deps) {
    const key = deps.config.keys.exa;
    if (!key) throw new QuarryError("MISSING_API_KEY", "EXA_API_KEY is not set");
    const body: Record<string, unknown> = {
      query: renderQuery(query, { operators: false }),
      numResults: options.count,
      contents: { text: { maxCharacters: TEXT_CHARS } },
    };
    if (query.sites.length > 0) body.includeDomains = query.sites;
    if (query.excludedSites.length > 0) body.excludeDomains = query.excludedSites;
    if (options.time) {
      body.startPublishedDate = new Date(deps.now() - TIME_DAYS[options.time] * DAY_MS)
        .toISOString();
    }
    const region = parseRegion(options.region);
    if (region) body.userLocation = region.country.toUpperCase();
    const url = `${deps.config.urls.exa}/search`;
    const res = await engineRequest(LABEL, url, deps, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(body),
      onStatus: (r) => keyRejected(LABEL, "EXA_API_KEY", r),
    });
    return parseExa(res.body, url);
  },
};
