/**
 * Rendering pages in a real headless Chromium over the DevTools protocol, at
 * `QUARRY_BROWSER_URL` (`http://host:port` of `--remote-debugging-port`, or a
 * `ws://` browser endpoint such as browserless). Uses Quarry's own small CDP
 * client (`browser/cdp.ts`; why not puppeteer-core is said there) with
 * `--allow-net` only. Loaded with a dynamic `import()` the first time a page
 * is rendered.
 *
 * Bounded: at most `maxTabs` tabs at once (others wait their turn, within
 * their own timeout), a timeout per render, and every tab's browser context
 * disposed on success, failure, timeout or cancellation.
 * @module
 */
import { CdpConnection } from "./browser/cdp.ts";
import { type GuardOptions, type RequestGuard, requestGuard } from "./browser/policy.ts";
import { renderInTab } from "./browser/tab.ts";
import type { Renderer, RenderOutcome } from "./render_step.ts";

/** How to reach and use the browser. */
export interface RendererOptions extends GuardOptions {
  /** `http://127.0.0.1:9222` or a `ws://…` browser endpoint. */
  browserUrl: string;
  /** Most tabs open at once. @default 4 */
  maxTabs?: number;
  /** Default timeout of one render in its tab (the wait for a tab may last 4 times as long). @default 15000 */
  timeoutMs?: number;
  /** Largest rendered DOM kept, in characters. @default 10_000_000 */
  maxHtmlChars?: number;
  fetch: typeof globalThis.fetch;
  now: () => number;
}

/** What `doctor` says about the browser. */
export interface BrowserInfo {
  url: string;
  reachable: boolean;
  /** e.g. `Chrome/156.0.8078.79`. */
  version?: string;
  error?: string;
}

/** A renderer that can also describe its browser and be closed. */
export interface BrowserRenderer extends Renderer {
  info(): Promise<BrowserInfo>;
  /** Most tabs this renderer had open at once. */
  readonly peakTabs: number;
  close(): Promise<void>;
}

/** Defaults of {@linkcode RendererOptions}. */
export const DEFAULT_RENDER = { maxTabs: 4, timeoutMs: 15_000, maxHtmlChars: 10_000_000 };
const CONNECT_TIMEOUT_MS = 5000;
/** Part of a render's time kept for taking the DOM after the wait for `load`. */
const SNAPSHOT_RESERVE = 0.15;
/** The wait for a free tab may last this many render timeouts. */
const QUEUE_TIMEOUTS = 4;
/** Longest wait after `load` for the scripts' own requests to finish. */
const SETTLE_MS = 2000;

/** Finds the browser's WebSocket endpoint behind an `http://host:port` URL. */
export async function browserEndpoint(
  browserUrl: string,
  fetch: typeof globalThis.fetch,
): Promise<string> {
  const base = new URL(browserUrl);
  if (base.protocol === "ws:" || base.protocol === "wss:") return base.href;
  const response = await fetch(new URL("/json/version", base), {
    signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`${base.origin}/json/version answered ${response.status}`);
  const body = await response.json() as { webSocketDebuggerUrl?: string };
  if (!body.webSocketDebuggerUrl) throw new Error(`${base.origin} is not a DevTools endpoint`);
  // The browser names itself as it sees itself (0.0.0.0, a container name): keep our host.
  const ws = new URL(body.webSocketDebuggerUrl);
  ws.protocol = base.protocol === "https:" ? "wss:" : "ws:";
  ws.host = base.host;
  return ws.href;
}

/** Counts tabs and makes renders wait for a free one. */
class TabSlots {
  #used = 0;
  #queue: (() => void)[] = [];
  peak = 0;
  constructor(readonly max: number) {}

  async acquire(signal: AbortSignal): Promise<() => void> {
    while (this.#used >= this.max) {
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          this.#queue = this.#queue.filter((w) => w !== wake);
          reject(signal.reason);
        };
        const wake = () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
        this.#queue.push(wake);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    }
    this.#used++;
    this.peak = Math.max(this.peak, this.#used);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#used--;
      this.#queue.shift()?.();
    };
  }
}

/** The guard's verdict on the page itself, before any tab is opened. */
async function mainGuard(url: string, guard: RequestGuard) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false as const, status: "http_error" as const, reason: `not a URL: ${url}` };
  }
  const verdict = await guard(parsed);
  return verdict.ok ? undefined : { ...verdict, ok: false as const };
}

function failure(status: "timeout" | "http_error", reason: string, elapsedMs: number) {
  return { ok: false as const, status, reason, elapsedMs };
}

/** Opens a renderer; the browser is connected on the first render and again after a drop. */
export function openRenderer(options: RendererOptions): BrowserRenderer {
  const slots = new TabSlots(options.maxTabs ?? DEFAULT_RENDER.maxTabs);
  let connection: Promise<CdpConnection> | undefined;
  let closed = false;

  const connect = (): Promise<CdpConnection> => {
    if (closed) return Promise.reject(new Error("the renderer is closed"));
    connection ??= browserEndpoint(options.browserUrl, options.fetch)
      .then((ws) => CdpConnection.open(ws, CONNECT_TIMEOUT_MS))
      .then((conn) => {
        conn.closed.then(() => {
          if (connection === current) connection = undefined;
        });
        return conn;
      });
    const current = connection;
    current.catch(() => {
      if (connection === current) connection = undefined;
    });
    return current;
  };

  async function render(
    url: string,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<RenderOutcome> {
    const started = options.now();
    const timeoutMs = opts.timeoutMs ?? options.timeoutMs ?? DEFAULT_RENDER.timeoutMs;
    // The wait for a free tab has its own bound, so pages queued behind slow
    // ones are not failed for time they never had in a tab.
    const queued = AbortSignal.timeout(timeoutMs * QUEUE_TIMEOUTS);
    let timeout = queued;
    const elapsed = () => options.now() - started;
    let release = () => {};
    const guard = requestGuard({ ...options, cache: new Map() });
    try {
      const refused = await mainGuard(url, guard);
      if (refused) return { ...refused, elapsedMs: elapsed() };
      release = await slots.acquire(opts.signal ? AbortSignal.any([opts.signal, queued]) : queued);
      timeout = AbortSignal.timeout(timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      const inTab = options.now();
      const conn = await connect();
      return await renderInTab(conn, url, {
        guard,
        signal,
        loadDeadline: inTab + timeoutMs * (1 - SNAPSHOT_RESERVE),
        settleMs: SETTLE_MS,
        maxHtmlChars: options.maxHtmlChars ?? DEFAULT_RENDER.maxHtmlChars,
        now: options.now,
      });
    } catch (error) {
      if (timeout.aborted) {
        const what = timeout === queued ? "no free browser tab" : "no rendered page";
        return failure(
          "timeout",
          `${what} within ${timeout === queued ? timeoutMs * QUEUE_TIMEOUTS : timeoutMs} ms`,
          elapsed(),
        );
      }
      if (opts.signal?.aborted) return failure("timeout", "cancelled", elapsed());
      const why = error instanceof Error ? error.message : String(error);
      return failure("http_error", `browser at ${options.browserUrl}: ${why}`, elapsed());
    } finally {
      release();
    }
  }

  async function info(): Promise<BrowserInfo> {
    try {
      const conn = await connect();
      const version = await conn.send<{ product?: string }>("Browser.getVersion");
      return {
        url: options.browserUrl,
        reachable: true,
        ...(version.product ? { version: version.product } : {}),
      };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { url: options.browserUrl, reachable: false, error: why };
    }
  }

  return {
    render,
    info,
    get peakTabs() {
      return slots.peak;
    },
    async close() {
      closed = true;
      const conn = await connection?.catch(() => undefined);
      await conn?.close();
    },
  };
}
