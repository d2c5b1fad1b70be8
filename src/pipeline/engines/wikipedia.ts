/**
 * Wikipedia through the MediaWiki search API (`action=query&list=search`),
 * keyless JSON. The language edition follows `--region` (`de-de` asks
 * de.wikipedia.org); result URLs are `/wiki/<Title>` on that edition.
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
  str,
  unrecognised,
} from "./common.ts";
import { engineRequest } from "./http.ts";
import type { Engine } from "./types.ts";

const LABEL = "Wikipedia";
const PAGE_SIZE = 20;
const DEFAULT_LANG = "en";
const LANG_SLOT = /\{lang\}/g;
const LANG_CODE = /^[a-z]{2,3}(?:-[a-z]+)?$/;
/** MediaWiki's answer when the servers are lagging: come back later. */
const LAG_CODES = new Set(["maxlag", "ratelimited"]);

/** The edition's base URL for a region (the `{lang}` slot of the configured URL). */
export function wikipediaBase(configured: string, region: string | undefined): string {
  const lang = parseRegion(region)?.lang;
  return configured.replace(LANG_SLOT, lang && LANG_CODE.test(lang) ? lang : DEFAULT_LANG);
}

/** Article path as Wikipedia writes it: underscores for spaces, `:` and `,` left readable. */
function wikiPath(title: string): string {
  return encodeURIComponent(title.replaceAll(" ", "_")).replaceAll("%3A", ":")
    .replaceAll("%2C", ",");
}

function apiError(error: Record<string, unknown>): QuarryError {
  const code = str(error.code);
  const info = str(error.info) || code;
  return LAG_CODES.has(code)
    ? new QuarryError("RATE_LIMITED", `${LABEL} asked to slow down: ${info}`, {
      suggestions: ["Wait a minute before searching again"],
    })
    : new QuarryError("UPSTREAM_ERROR", `${LABEL} refused the search: ${info}`, {
      suggestions: ["Try another engine with --engine"],
    });
}

/**
 * Parses a MediaWiki search answer; `base` is the edition (`https://en.wikipedia.org`).
 *
 * @example
 * ```ts
 * const results = parseWikipedia(json, "https://en.wikipedia.org");
 * ```
 */
export function parseWikipedia(json: string, base: string): Candidate[] {
  const body = asRecord(parseJson(json, LABEL));
  const error = asRecord(body?.error);
  if (error) throw apiError(error);
  const search = asRecord(body?.query)?.search;
  if (!Array.isArray(search)) throw unrecognised(LABEL);
  const raw: RawResult[] = [];
  for (const entry of search) {
    const r = asRecord(entry);
    const title = str(r?.title);
    if (!title) continue;
    const item: RawResult = {
      url: `${base}/wiki/${wikiPath(title)}`,
      title,
      snippet: fragmentText(str(r?.snippet)),
    };
    const published = isoDate(str(r?.timestamp));
    if (published) item.published = published;
    raw.push(item);
  }
  if (raw.length === 0 && search.length > 0) throw unrecognised(LABEL);
  return finalizeResults(raw, "wikipedia");
}

/** Wikipedia (MediaWiki search API). Time ranges are not supported by the API and are ignored. */
export const wikipedia: Engine = {
  name: "wikipedia",
  operators: false,
  ownSiteOnly: true,
  pageSize: PAGE_SIZE,
  available: () => true,
  async search(query, options, deps) {
    const base = wikipediaBase(deps.config.urls.wikipedia, options.region);
    const params = new URLSearchParams({
      action: "query",
      list: "search",
      srsearch: renderQuery(query, { operators: false }),
      srlimit: String(PAGE_SIZE),
      srprop: "snippet|timestamp",
      format: "json",
      formatversion: "2",
      utf8: "1",
    });
    if ((options.page ?? 1) > 1) {
      params.set("sroffset", String(((options.page ?? 1) - 1) * PAGE_SIZE));
    }
    const url = `${base}/w/api.php?${params}`;
    const res = await engineRequest(LABEL, url, deps, { headers: { accept: "application/json" } });
    return parseWikipedia(res.body, base);
  },
};
