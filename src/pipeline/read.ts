/**
 * Reading pages: fetch them all at once, then extract each. Shared by the
 * `fetch` and `search` operations.
 * @module
 */
import type { ResolveDns } from "./guard.ts";
import { extract } from "./extract/mod.ts";
import type { ExtractFn } from "./extract/pool.ts";
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
  /** Where the page went in the archive, when it was archived. */
  archiveId?: string;
  /** The page was unchanged (HTTP 304) and its archived text was used. */
  revalidated?: boolean;
  /** The content comes from the DOM a browser rendered (see `render_step.ts`). */
  rendered?: boolean;
}

/** What reading needs from outside. */
export interface ReadDeps {
  fetch: typeof globalThis.fetch;
  resolveDns: ResolveDns;
  now: () => number;
  /** Extraction off the event loop (a server's worker pool); inline when absent. */
  extract?: ExtractFn;
}

/**
 * Extracts one fetched page (or takes the extraction done elsewhere); a page
 * that did not fetch passes through.
 */
export function extractFetched(result: FetchResult, done?: ExtractResult | Error): PageRead {
  if (result.status !== "ok" || result.body === undefined) {
    return {
      fetch: result,
      status: result.status,
      ...(result.reason === undefined ? {} : { reason: result.reason }),
    };
  }
  let extracted: ExtractResult;
  try {
    if (done instanceof Error) throw done;
    extracted = done ?? extract(
      result.body,
      result.finalUrl,
      result.contentType === undefined ? {} : { contentType: result.contentType },
    );
  } catch (error) {
    // One page the extractor chokes on must not fail the batch.
    const why = error instanceof Error ? error.message : String(error);
    return { fetch: result, status: "empty", reason: `could not extract the page: ${why}` };
  }
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
  return await extractAll(await fetchAll(urls, options, deps), deps);
}

/** Extracts fetched pages, off the event loop when `deps.extract` is a worker pool. */
export async function extractAll(
  results: FetchResult[],
  deps: Pick<ReadDeps, "extract">,
): Promise<PageRead[]> {
  const offload = deps.extract;
  if (!offload) return results.map((r) => extractFetched(r));
  return await Promise.all(
    results.map(async (r) =>
      r.status === "ok" && r.body !== undefined
        ? extractFetched(
          r,
          await offload(r.body, r.finalUrl, r.contentType ? { contentType: r.contentType } : {})
            .catch((e: unknown) => e instanceof Error ? e : new Error(String(e))),
        )
        : extractFetched(r)
    ),
  );
}
