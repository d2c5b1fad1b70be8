/**
 * One render in one tab: a fresh browser context (no cookies or storage
 * shared with any other render), every request of the tab and of every frame
 * and worker it starts paused and decided by the guard, and the context
 * disposed at the end whatever happened.
 * @module
 */
import type { CdpConnection } from "./cdp.ts";
import type { RequestGuard } from "./policy.ts";
import { PAGE_DISARM } from "./disarm.ts";
import { TabWatch, untilAborted } from "./watch.ts";
import type { RenderOutcome } from "../render_step.ts";

/** Limits of one render. */
export interface TabOptions {
  guard: RequestGuard;
  /** Aborts the render (timeout or cancellation). */
  signal: AbortSignal;
  /** When the wait for `load` gives up and takes the DOM as it stands. */
  loadDeadline: number;
  /** Longest wait after `load` for the network to go quiet (scripts fetching the article). */
  settleMs: number;
  /** Largest DOM kept, in characters. */
  maxHtmlChars: number;
  now: () => number;
}

/** No request for this long after `load` and the page is taken as written. */
const QUIET_MS = 250;
/** How long disposing a context may take before the render stops waiting. */
const DISPOSE_TIMEOUT_MS = 5000;
/** The DOM as the scripts left it, or only its size when it is over `max` (not sent over). */
function snapshot(max: number): string {
  return `(() => { const html = document.documentElement ? document.documentElement.outerHTML : "";
    return { size: html.length, html: html.length > ${max} ? "" : html, url: location.href }; })()`;
}

/**
 * Renders `url` in a new tab of its own browser context and returns the DOM
 * after scripts ran. Never throws for the page's own failures (they are an
 * outcome); throws when the browser connection fails or `signal` aborts.
 */
export async function renderInTab(
  conn: CdpConnection,
  url: string,
  options: TabOptions,
): Promise<RenderOutcome> {
  const started = options.now();
  const signal = options.signal;
  const { browserContextId } = await untilAborted(
    conn.send<{ browserContextId: string }>("Target.createBrowserContext", {
      disposeOnDetach: true,
    }),
    signal,
  );
  let stop = () => {};
  try {
    const { targetId } = await untilAborted(
      conn.send<{ targetId: string }>("Target.createTarget", {
        url: "about:blank",
        browserContextId,
      }),
      signal,
    );
    const watch = new TabWatch(conn, targetId, options.guard, options.now);
    stop = conn.on((e) => watch.handle(e));
    const { sessionId } = await untilAborted(
      conn.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true }),
      signal,
    );
    const send = <T = Record<string, unknown>>(method: string, params = {}) =>
      untilAborted(conn.send<T>(method, params, sessionId), signal);
    await Promise.all([
      untilAborted(watch.guardSession(sessionId), signal),
      send("Page.enable"),
      send("Page.addScriptToEvaluateOnNewDocument", { source: PAGE_DISARM, runImmediately: true }),
      send("Page.setLifecycleEventsEnabled", { enabled: true }),
    ]);
    const nav = await send<{ loaderId?: string; errorText?: string }>("Page.navigate", { url });
    const elapsed = () => options.now() - started;
    if (nav.errorText || nav.loaderId === undefined) {
      const refused = watch.mainRefusal;
      return refused
        ? { ok: false, status: "private_address", reason: refused, elapsedMs: elapsed() }
        : {
          ok: false,
          status: "http_error",
          reason: `the browser could not load the page: ${nav.errorText ?? "no document"}`,
          elapsedMs: elapsed(),
        };
    }
    const loader = nav.loaderId;
    const loaded = await watch.waitFor(loader, "load", options.loadDeadline, options);
    if (!loaded && !watch.lifecycle.has(`${loader}:DOMContentLoaded`)) {
      return {
        ok: false,
        status: "timeout",
        reason: "the page did not finish loading in the browser",
        elapsedMs: elapsed(),
      };
    }
    if (loaded) {
      const settle = Math.min(options.loadDeadline, options.now() + options.settleMs);
      await watch.waitQuiet(QUIET_MS, settle, options);
    }
    const snap = await send<{ result: { value?: { size: number; html: string; url: string } } }>(
      "Runtime.evaluate",
      { expression: snapshot(options.maxHtmlChars), returnByValue: true },
    );
    const value = snap.result.value ?? { size: 0, html: "", url };
    const status = watch.httpStatus;
    if (status !== undefined && status >= 400) {
      return { ok: false, status: "http_error", reason: `HTTP ${status}`, elapsedMs: elapsed() };
    }
    if (value.size > options.maxHtmlChars) {
      return {
        ok: false,
        status: "too_large",
        reason: `rendered DOM of ${value.size} characters, over ${options.maxHtmlChars}`,
        elapsedMs: elapsed(),
      };
    }
    return {
      ok: true,
      html: value.html,
      finalUrl: value.url,
      elapsedMs: elapsed(),
      ...(status === undefined ? {} : { httpStatus: status }),
    };
  } finally {
    stop();
    // Disposing the context closes the tab and any frame, worker or popup it opened.
    const bound = AbortSignal.timeout(DISPOSE_TIMEOUT_MS);
    await untilAborted(conn.send("Target.disposeBrowserContext", { browserContextId }), bound)
      .catch(() => {});
  }
}
