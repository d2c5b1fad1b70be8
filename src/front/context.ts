/**
 * The one place the program is wired up: the real {@linkcode OpContext}
 * (network, DNS, clock, stores of this process) and, for the faces that
 * serve many calls (`quarry serve`, `quarry mcp`, the `deno serve` export),
 * the extraction workers. Each resource is opened on first use, so a
 * command pays only for what it touches. Faces build it once; tests build
 * their own.
 * @module
 */
import type { Config } from "../config.ts";
import type { OpContext } from "../ops/types.ts";
import type { ExtractPool } from "../pipeline/extract/pool.ts";
import { systemResolveDns } from "../pipeline/guard.ts";
import { createConnector } from "../pipeline/pinned.ts";
import { createByteBudget } from "../pipeline/budget.ts";
import { type LazyBrowser, lazyBrowser } from "../pipeline/browser/lazy.ts";
import { storesFor } from "../store/stores.ts";

/** Sleeps `ms`, ending early (with a rejection) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Builds the process's context. `progress` receives one line per event. */
export function realContext(
  config: Config,
  progress: (line: string) => void = () => {},
): OpContext {
  return {
    config,
    fetch: globalThis.fetch.bind(globalThis),
    resolveDns: systemResolveDns,
    // Page fetches connect to the address the guard checked (DNS rebinding).
    connect: createConnector().fetch,
    // Shared by every read of this context: a server builds one for all its requests.
    budget: createByteBudget(),
    now: () => Date.now(),
    sleep,
    random: Math.random,
    stores: storesFor(config),
    progress,
    ...(config.browser.url === undefined ? {} : { browser: browserOf(config, config.browser.url) }),
  };
}

/** The configured browser, connected on the first render; faces close it at exit. */
function browserOf(config: Config, url: string): LazyBrowser {
  return lazyBrowser({
    browserUrl: url,
    maxTabs: config.browser.tabs,
    timeoutMs: config.browser.timeoutMs,
    allowPrivateNetwork: config.allowPrivateNetwork,
    resolveDns: systemResolveDns,
    fetch: globalThis.fetch.bind(globalThis),
    now: () => Date.now(),
  });
}

/** A context and what ends the resources it opened. */
export interface Wired {
  context: OpContext;
  /** Ends the workers (if any started), closes the stores and the browser connection. */
  close(): Promise<void>;
}

/**
 * Adds extraction in workers, so pages are parsed off the event loop while
 * the server keeps answering. The pool (and the extraction code) is loaded
 * on the first page, not at start-up.
 */
export function withWorkers(
  context: OpContext,
  options: { indexRoots?: readonly string[] } = {},
): Wired {
  let pool: Promise<ExtractPool> | undefined;
  let closed = false;
  const start = () =>
    import("../pipeline/extract/pool.ts").then((m) => {
      const started = m.createExtractPool({ timeoutMs: context.config.timeoutMs });
      if (closed) started.close();
      return started;
    });
  return {
    context: {
      ...context,
      extract: async (body, url, extractOptions, call) => {
        pool ??= start();
        return await (await pool).extract(body, url, extractOptions, call);
      },
      // Servers index only under their roots; the CLI (no roots given) anywhere its user can read.
      ...(options.indexRoots === undefined ? {} : { indexRoots: options.indexRoots }),
    },
    async close() {
      closed = true;
      (await pool)?.close();
      await context.stores.close();
      await context.browser?.close();
    },
  };
}
