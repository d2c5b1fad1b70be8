/**
 * Reading pages with memory: fetch them all at once and handle each as it
 * lands — extract it (in the worker pool when one is passed), archive it, and
 * hand it on — so when the slowest page arrives only its own work remains. A
 * page read before is re-fetched conditionally (If-None-Match /
 * If-Modified-Since); on 304 the page kept in the archive is used as it was
 * first read. Shared by the `fetch` and `search` operations.
 * @module
 */
import type { ResolveDns } from "./guard.ts";
import { extract, extractBody, type ExtractOptions } from "./extract/mod.ts";
import type { ExtractCall, ExtractFn } from "./extract/pool.ts";
import { fetchAll, type FetchOptions } from "./fetch.ts";
import type { ByteBudget } from "./budget.ts";
import type { PinnedFetch } from "./pinned.ts";
import { type ArchivedPage, articleFromArchived, type PageMemory } from "./memory.ts";
import { type Renderer, renderIfNeeded, type RenderMode } from "./render_step.ts";
import type { ExtractResult, FetchResult, PageStatus, Validators } from "./types.ts";

/** Least time a page's extraction gets, however long its fetch took. */
const MIN_EXTRACT_MS = 1_000;

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
  /** The page was unchanged (HTTP 304) and its archived copy was used. */
  revalidated?: boolean;
  /** The content comes from the DOM a browser rendered (see `render_step.ts`). */
  rendered?: boolean;
}

/** What reading needs from outside. */
export interface ReadDeps {
  fetch: typeof globalThis.fetch;
  resolveDns: ResolveDns;
  now: () => number;
  /** Extraction off the event loop (a worker pool); inline when absent. */
  extract?: ExtractFn | undefined;
  /** Fetches from the address the guard checked (DNS rebinding); `fetch` when absent. */
  connect?: PinnedFetch | undefined;
  /** Body bytes in flight across every read sharing it. */
  budget?: ByteBudget | undefined;
  /** Options every page is extracted with (e.g. the PDF page cap). */
  extractOptions?: Omit<ExtractOptions, "contentType"> | undefined;
  /** Pages read before; without it nothing is revalidated or archived. */
  memory?: PageMemory | undefined;
  /** One line about a store that failed; the pages are read anyway. */
  progress?: ((line: string) => void) | undefined;
  /** The browser that renders JavaScript pages; absent when none is configured. */
  renderer?: Renderer | undefined;
}

/** How one batch is read. */
export interface ReadOptions {
  fetch: Partial<FetchOptions>;
  /** The question the pages are read for, archived with them. */
  query?: string | undefined;
  /** Called with each page, in the order they are ready, with its index in `urls`. */
  onPage?: ((page: PageRead, index: number) => void) | undefined;
  /** When pages are rendered in the browser (`render_step.ts`). @default "auto" */
  render?: RenderMode | undefined;
}

/**
 * Extracts one fetched page (or takes the extraction done elsewhere); a page
 * that did not fetch passes through.
 */
export function extractFetched(result: FetchResult, done?: ExtractResult | Error): PageRead {
  if (result.status !== "ok" || contentOf(result) === undefined) {
    return {
      fetch: result,
      status: result.status,
      ...(result.reason === undefined ? {} : { reason: result.reason }),
    };
  }
  let extracted: ExtractResult;
  try {
    if (done instanceof Error) throw done;
    if (!done && result.body === undefined) throw new Error("a PDF is extracted by extractOne");
    extracted = done ?? extract(
      result.body ?? "",
      result.finalUrl,
      result.contentType === undefined ? {} : { contentType: result.contentType },
    );
  } catch (error) {
    // One page the extractor chokes on must not fail the batch.
    return { fetch: result, status: "empty", reason: `could not extract the page: ${why(error)}` };
  }
  return {
    fetch: result,
    extracted,
    status: extracted.status,
    ...(extracted.reason === undefined ? {} : { reason: extracted.reason }),
  };
}

/**
 * The bounds of one page's extraction: what is left of its timeout (at least
 * a second), and the batch's signal.
 */
export function extractCall(result: FetchResult, options: Partial<FetchOptions>): ExtractCall {
  return {
    signal: options.signal,
    timeoutMs: options.timeoutMs === undefined
      ? undefined
      : Math.max(MIN_EXTRACT_MS, options.timeoutMs - result.elapsedMs),
  };
}

/** What a fetch brought to extract: the bytes of a PDF, else the decoded text. */
function contentOf(result: FetchResult): string | Uint8Array | undefined {
  return result.bytes ?? result.body;
}

/**
 * Extracts one page, off the event loop when `deps.extract` is a worker pool
 * (bounded by `call`). A PDF without a pool is extracted inline too,
 * asynchronously (pdf.js is).
 */
export async function extractOne(
  result: FetchResult,
  deps: Pick<ReadDeps, "extract" | "extractOptions">,
  call: ExtractCall = {},
): Promise<PageRead> {
  const body = contentOf(result);
  const run = deps.extract ?? (result.bytes ? extractBody : undefined);
  if (!run || result.status !== "ok" || body === undefined) return extractFetched(result);
  const options = {
    ...deps.extractOptions,
    ...(result.contentType ? { contentType: result.contentType } : {}),
  };
  const done = await run(body, result.finalUrl, options, call)
    .catch((e: unknown) => e instanceof Error ? e : new Error(String(e)));
  return extractFetched(result, done);
}

function why(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fromArchive(result: FetchResult, page: ArchivedPage): PageRead {
  return {
    fetch: { ...result, status: "ok" },
    extracted: { status: "ok", extractor: "text", article: articleFromArchived(page) },
    status: "ok",
    archiveId: page.id,
    revalidated: true,
  };
}

/** A batch in progress: the memory, and what each page needs after it lands. */
interface Batch {
  options: ReadOptions;
  deps: ReadDeps;
}

async function recall(urls: string[], deps: ReadDeps): Promise<Map<string, Validators>> {
  if (!deps.memory) return new Map();
  try {
    return await deps.memory.validators(urls);
  } catch (error) {
    deps.progress?.(`archive unavailable: ${why(error)}`);
    return new Map();
  }
}

/** The archived copy behind a 304, when it can rebuild the page as first read. */
async function unchanged(url: string, deps: ReadDeps): Promise<ArchivedPage | undefined> {
  try {
    const page = await deps.memory?.archived(url);
    return page?.kept ? page : undefined;
  } catch (error) {
    deps.progress?.(`archive unavailable: ${why(error)}`);
    return undefined;
  }
}

async function remember(page: PageRead, batch: Batch): Promise<void> {
  const { memory, now, progress } = batch.deps;
  if (!memory || !page.extracted || page.status !== "ok") return;
  const result = page.fetch;
  try {
    page.archiveId = await memory.remember({
      url: result.url,
      finalUrl: result.finalUrl,
      article: page.extracted.article,
      ...(page.extracted.extractor === "pdf" ? { type: "pdf" as const } : {}),
      ...(result.validators ? { validators: result.validators } : {}),
      ...(batch.options.query === undefined ? {} : { query: batch.options.query }),
      fetchedAt: new Date(now()).toISOString(),
    });
  } catch (error) {
    progress?.(`could not archive ${result.url}: ${why(error)}`);
  }
}

/**
 * Everything one landed page needs: its archived copy or its extraction (and
 * a render in the browser when it came back as a JavaScript shell), then the archive.
 */
async function settle(result: FetchResult, batch: Batch): Promise<PageRead> {
  let landed = result;
  if (result.status === "not_modified") {
    const kept = await unchanged(result.url, batch.deps);
    if (kept) return fromArchive(result, kept);
    // The archived copy is gone (or older than the kept page): ask again without validators.
    const { validators: _, ...plain } = batch.options.fetch;
    [landed] = await fetchAll([result.url], plain, batch.deps) as [FetchResult];
  }
  const page = await renderIfNeeded(
    await extractOne(landed, batch.deps, extractCall(landed, batch.options.fetch)),
    {
      mode: batch.options.render ?? "auto",
      renderer: batch.deps.renderer,
      extract: batch.deps.extract,
      signal: batch.options.fetch.signal,
    },
  );
  await remember(page, batch);
  return page;
}

/**
 * Fetches every URL at once and handles each page as it lands. Store
 * failures never fail a page: they are reported through `deps.progress` and
 * the page is returned as read. Pages come back in the order of `urls`.
 */
export async function readPages(
  urls: string[],
  options: ReadOptions,
  deps: ReadDeps,
): Promise<PageRead[]> {
  const validators = await recall(urls, deps);
  const batch: Batch = { options, deps };
  const work = new Map<number, Promise<PageRead>>();
  const start = (result: FetchResult, i: number) => {
    if (work.has(i)) return;
    work.set(
      i,
      settle(result, batch).then((page) => {
        try {
          options.onPage?.(page, i);
        } catch (error) {
          deps.progress?.(`could not handle ${result.url}: ${why(error)}`);
        }
        return page;
      }),
    );
  };
  const fetched = await fetchAll(urls, {
    ...options.fetch,
    validators: Object.fromEntries(validators),
    onResult: (result, i) => {
      options.fetch.onResult?.(result, i);
      start(result, i);
    },
  }, deps);
  fetched.forEach((result, i) => start(result, i));
  return await Promise.all(urls.map((_, i) => work.get(i)!));
}
