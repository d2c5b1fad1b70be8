/**
 * What a tab is doing, from the CDP events of its sessions: which requests
 * are in flight, which lifecycle events its main frame reached, and the
 * guard's verdict on each request it (or a frame or worker it started) makes.
 * @module
 */
import type { CdpConnection, CdpEvent } from "./cdp.ts";
import { WORKER_DISARM } from "./disarm.ts";
import { BLOCKED_URL_PATTERNS, decide, type RequestGuard } from "./policy.ts";

/** The clock and the signal a wait obeys. */
export interface WaitOptions {
  signal: AbortSignal;
  now: () => number;
}

/** Rejects when `signal` aborts; the promise itself carries on unobserved. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
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
export class TabWatch {
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
      case "Target.attachedToTarget": {
        const info = p.targetInfo as { type?: string } | undefined;
        void this.#adopt(String(p.sessionId), info?.type ?? "other");
        break;
      }
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
    options: WaitOptions,
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
  async waitQuiet(quietMs: number, until: number, options: WaitOptions): Promise<boolean> {
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
   * Guards a target the tab started (frame, worker) before it runs. A frame
   * gets interception of its own; a dedicated worker, which has no `Fetch`
   * domain, is disarmed instead (see `disarm.ts`). One that can be neither
   * is left paused: it never runs, so it never requests anything (fail
   * closed); the context's disposal ends it.
   */
  async #adopt(child: string, type: string): Promise<void> {
    this.sessions.add(child);
    try {
      if (type === "worker") {
        const done = await this.conn.send<{ result?: { value?: unknown } }>(
          "Runtime.evaluate",
          { expression: WORKER_DISARM, returnByValue: true },
          child,
        );
        if (done.result?.value !== true) return;
      } else {
        await this.guardSession(child);
      }
    } catch {
      return;
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
