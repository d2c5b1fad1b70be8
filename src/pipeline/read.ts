/**
 * Reading pages: fetch them all at once, then extract each. Shared by the
 * `fetch` and `search` operations.
 * @module
 */
import type { ResolveDns } from "../ops/types.ts";
import { extract } from "./extract.ts";
import { fetchAll, type FetchOptions } from "./fetch.ts";
import type { ExtractResult, FetchResult, PageStatus } from "./types.ts";

/** A page fetched and, when it could be, extracted. */
export interface PageRead {
  fetch: FetchResult;
  /** Present when the fetch succeeded. */
  extracted?: ExtractResult;
  /** Final status: the fetch status, or `empty` when extraction found nothing. */
  status: PageStatus;
  reason?: string;
}

/** What reading needs from outside. */
export interface ReadDeps {
  fetch: typeof globalThis.fetch;
  resolveDns: ResolveDns;
  now: () => number;
}

/** Extracts one fetched page; a page that did not fetch passes through. */
export function extractFetched(result: FetchResult): PageRead {
  if (result.status !== "ok" || result.body === undefined) {
    return {
      fetch: result,
      status: result.status,
      ...(result.reason === undefined ? {} : { reason: result.reason }),
    };
  }
  const extracted = extract(
    result.body,
    result.finalUrl,
    result.contentType === undefined ? {} : { contentType: result.contentType },
  );
  return {
    fetch: result,
    extracted,
    status: extracted.status,
    ...(extracted.reason === undefined ? {} : { reason: extracted.reason }),
  };
}

/** Fetches every URL at once and extracts each page as it lands. */
export async function readPages(
  urls: string[],
  options: Partial<FetchOptions>,
  deps: ReadDeps,
): Promise<PageRead[]> {
  const results = await fetchAll(urls, options, deps);
  return results.map(extractFetched);
}
