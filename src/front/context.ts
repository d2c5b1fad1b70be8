/**
 * The real {@linkcode OpContext}: network, DNS, clock and stores of this
 * process. Faces build it once; tests build their own.
 * @module
 */
import type { Config } from "../config.ts";
import type { OpContext } from "../ops/types.ts";
import { systemResolveDns } from "../pipeline/guard.ts";
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
