/**
 * One render in one tab: a fresh browser context (no cookies or storage
 * shared with any other render), every request of the tab and of every frame
 * and worker it starts paused and decided by the guard, and the context
 * disposed at the end whatever happened.
 * @module
 */
import type { CdpConnection, CdpEvent } from "./cdp.ts";
import { BLOCKED_URL_PATTERNS, decide, type RequestGuard } from "./policy.ts";
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
const SNAPSHOT =
  "({html: document.documentElement ? document.documentElement.outerHTML : '', url: location.href})";

/**
 * Run in every document before its own scripts: the ways out of the page
 * that the `Fetch` domain cannot pause. WebSocket handshakes are never
 * paused, and shared and service workers are targets of their own that a
 * tab's auto-attach does not reach. Reading a page needs none of them.
 */
const DISARM = `(() => {
  for (const name of ["WebSocket", "WebSocketStream", "SharedWorker", "WebTransport", "RTCPeerConnection"]) {
    try { delete globalThis[name]; } catch {}
  }
  try {
    Object.defineProperty(Navigator.prototype, "serviceWorker", { get() { return undefined; } });
  } catch {}
})();`;

/** Rejects when `signal` aborts; the promise itself carries on unobserved. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Waits `ms`, less when `onWake`'s function is called; rejects when `signal`
 * aborts. The timer is always cleared, so no render leaves one behind.
 */
export function delay(
  ms: number,
  signal: AbortSignal,
  onWake: (wake: () => void) => void = () => {},
): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
    onWake(() => {
      done();
      resolve();
    });
  });
}

/** Watches the events of one tab and the targets it starts. */
class TabWatch {
  readonly sessions = new Set<string>();
  /** Lifecycle events of the main frame: `${loaderId}:${name}`. */
  readonly lifecycle = new Set<string>();
  /** Requests of the tab and its frames still in flight, and when the last one came or went. */
  readonly inflight = new Set<string>();
  lastActivity = 0;
  mainRefusal: string | undefined;
  httpStatus: number | undefined;
  #waiters: (() => void)[] = [];

  constructor(
    readonly conn: CdpConnection,
    readonly targetId: string,
    readonly guard: RequestGuard,
    readonly now: () => number,
  ) {}

  handle(event: CdpEvent): void {
    if (event.sessionId === undefined || !this.sessions.has(event.sessionId)) return;
    const p = event.params;
    const session = event.sessionId;
    switch (event.method) {
      case "Fetch.requestPaused":
        void this.#decide(session, p);
        break;
      case "Target.attachedToTarget":
        void this.#adopt(String(p.sessionId));
        break;
      case "Page.lifecycleEvent":
        if (p.frameId === this.targetId) {
          this.lifecycle.add(`${p.loaderId}:${p.name}`);
          this.#wake();
        }
        break;
      case "Network.requestWillBeSent":
        this.inflight.add(`${session}:${p.requestId}`);
        this.#touch();
        break;
      case "Network.loadingFinished":
      case "Network.loadingFailed":
        this.inflight.delete(`${session}:${p.requestId}`);
        this.#touch();
        break;
      case "Network.responseReceived": {
        const response = p.response as { status?: number } | undefined;
        if (p.type === "Document" && p.frameId === this.targetId) {
          this.httpStatus = response?.status;
        }
        break;
      }
    }
  }

  /** Resolves when the main frame of `loaderId` reached `name`, or at `until` (ms clock). */
  async waitFor(
    loaderId: string,
    name: string,
    until: number,
    options: TabOptions,
  ): Promise<boolean> {
    while (!this.lifecycle.has(`${loaderId}:${name}`)) {
      const left = until - options.now();
      if (left <= 0) return false;
      await delay(left, options.signal, (wake) => this.#waiters.push(wake));
    }
    return true;
  }

  /**
   * Resolves true once no request has been in flight for `quietMs` (the
   * page's scripts have fetched and written what they fetch), false at `until`.
   */
  async waitQuiet(quietMs: number, until: number, options: TabOptions): Promise<boolean> {
    for (;;) {
      const now = options.now();
      const quietFor = now - this.lastActivity;
      if (this.inflight.size === 0 && quietFor >= quietMs) return true;
      if (now >= until) return false;
      const next = this.inflight.size === 0 ? quietMs - quietFor : until - now;
      await delay(Math.max(1, Math.min(next, until - now)), options.signal, (wake) => {
        this.#waiters.push(wake);
      });
    }
  }

  /** Guards a session: interception on, WebSockets blocked, children paused until guarded. */
  async guardSession(session: string): Promise<void> {
    this.sessions.add(session);
    const send = (method: string, params: Record<string, unknown> = {}) =>
      this.conn.send(method, params, session);
    // Sent together (the browser runs them in order); only interception is required.
    const optional = () => {}; // Not every target type has a network agent or children.
    await Promise.all([
      send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] }),
      send("Network.enable").catch(optional),
      send("Network.setBlockedURLs", { urls: BLOCKED_URL_PATTERNS }).catch(optional),
      send("Target.setAutoAttach", {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
      })
        .catch(optional),
    ]);
  }

  /**
   * Guards a target the tab started (frame, worker) before it runs. One whose
   * requests cannot be intercepted is left paused: it never runs, so it
   * never requests anything (fail closed); the context's disposal ends it.
   */
  async #adopt(child: string): Promise<void> {
    try {
      await this.guardSession(child);
    } catch {
      return; // e.g. a dedicated worker, which has no Fetch domain: it stays paused.
    }
    await this.conn.send("Runtime.runIfWaitingForDebugger", {}, child).catch(() => {});
  }

  async #decide(session: string, p: Record<string, unknown>): Promise<void> {
    const request = p.request as { url: string };
    const resourceType = String(p.resourceType ?? "Other");
    const verdict = await decide({ url: request.url, resourceType }, this.guard);
    if (verdict.allow) {
      await this.conn.send("Fetch.continueRequest", { requestId: p.requestId }, session)
        .catch(() => {});
      return;
    }
    if (verdict.guarded && resourceType === "Document" && p.frameId === this.targetId) {
      this.mainRefusal = verdict.reason;
    }
    // A refused navigation is aborted, not failed: a failed one would commit
    // Chromium's error page in place of the document being read.
    const errorReason = resourceType === "Document" ? "Aborted" : "BlockedByClient";
    await this.conn.send("Fetch.failRequest", { requestId: p.requestId, errorReason }, session)
      .catch(() => {});
  }

  #touch(): void {
    this.lastActivity = this.now();
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
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
      send("Page.addScriptToEvaluateOnNewDocument", { source: DISARM, runImmediately: true }),
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
    const snap = await send<{ result: { value?: { html: string; url: string } } }>(
      "Runtime.evaluate",
      { expression: SNAPSHOT, returnByValue: true },
    );
    const value = snap.result.value ?? { html: "", url };
    const status = watch.httpStatus;
    if (status !== undefined && status >= 400) {
      return { ok: false, status: "http_error", reason: `HTTP ${status}`, elapsedMs: elapsed() };
    }
    if (value.html.length > options.maxHtmlChars) {
      return {
        ok: false,
        status: "too_large",
        reason: `rendered DOM over ${options.maxHtmlChars} characters`,
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
