/**
 * How operations read pages: the one builder of fetch options (timeouts,
 * user agent, the private-network switch, cancellation, progress lines) and
 * the reading deps wired to the stores.
 * @module
 */
import type { FetchOptions } from "../pipeline/fetch.ts";
import type { ReadDeps } from "../pipeline/read.ts";
import { pageMemory } from "../store/memory.ts";
import type { OpContext } from "./types.ts";

/** Limits of one read. */
export interface ReadLimits {
  /** Per URL. */
  timeoutMs: number;
  /** The whole batch; the fetcher's default when absent. */
  deadlineMs?: number;
}

/** Fetch options of an operation's read: its limits, the config, and a progress line per URL. */
export function fetchOptions(ctx: OpContext, limits: ReadLimits): Partial<FetchOptions> {
  return {
    timeoutMs: limits.timeoutMs,
    ...(limits.deadlineMs === undefined ? {} : { deadlineMs: limits.deadlineMs }),
    userAgent: ctx.config.userAgent,
    pdfMaxBytes: ctx.config.pdfMaxBytes,
    allowPrivateNetwork: ctx.config.allowPrivateNetwork,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onResult: (r) => ctx.progress(`${r.status.padEnd(8)} ${r.url} (${r.elapsedMs} ms)`),
  };
}

/** Reading deps of an operation: its I/O, its extractor, and the memory of pages read before. */
export function readDeps(ctx: OpContext): ReadDeps {
  return {
    fetch: ctx.fetch,
    resolveDns: ctx.resolveDns,
    now: ctx.now,
    extract: ctx.extract,
    connect: ctx.connect,
    budget: ctx.budget,
    extractOptions: { pdfMaxPages: ctx.config.pdfMaxPages },
    memory: pageMemory(ctx.stores),
    progress: ctx.progress,
    renderer: ctx.browser,
  };
}
