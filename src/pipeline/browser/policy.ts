/**
 * What the browser may request while it renders a page for Quarry: the
 * decision for each request the browser pauses on (CDP `Fetch.requestPaused`).
 * Pure apart from the guard it is given, so every rule is tested alone.
 * @module
 */
import { checkUrl, guardHost, type GuardResult, type ResolveDns } from "../guard.ts";

/** Resource types never loaded: reading needs none of them, and they are most of the bytes. */
export const BLOCKED_RESOURCE_TYPES: ReadonlySet<string> = new Set(["Image", "Media", "Font"]);

/**
 * URL patterns blocked outright with `Network.setBlockedURLs`. The `Fetch`
 * domain never pauses WebSocket handshakes, so the guard cannot see where one
 * goes; reading a page needs none, so none may open. Chromium 156 did not
 * honour this for page WebSockets (the render test caught it), so
 * `browser/tab.ts` also removes the constructors before any script runs.
 */
export const BLOCKED_URL_PATTERNS: readonly string[] = ["ws://*", "wss://*"];

/** Decides whether one URL may be requested. */
export type RequestGuard = (url: URL) => Promise<GuardResult>;

/** How the browser's requests are guarded. */
export interface GuardOptions {
  /** `QUARRY_ALLOW_PRIVATE_NETWORK`: when true only schemes and credentials are checked. */
  allowPrivateNetwork: boolean;
  resolveDns: ResolveDns;
  /**
   * Origins let through even when private (e.g. `http://127.0.0.1:8123`).
   * Tests use it to serve a "public" page from loopback while every other
   * loopback address stays refused; a user may list a local service.
   * @default []
   */
  allowOrigins?: readonly string[];
  /**
   * Verdicts by host for the length of one render, so a page's hundred
   * requests to its own host cost one DNS lookup.
   */
  cache?: Map<string, Promise<GuardResult>>;
}

/**
 * The SSRF guard of Quarry's own fetch ({@linkcode guardHost}), for the
 * browser's requests: http(s) only, no credentials, public addresses only.
 */
export function requestGuard(options: GuardOptions): RequestGuard {
  const allowed = new Set(options.allowOrigins ?? []);
  return async (url) => {
    try {
      checkUrl(url.href);
    } catch (error) {
      return {
        ok: false,
        status: "private_address",
        reason: error instanceof Error ? error.message : String(error),
      };
    }
    // The browser connects by itself: no addresses to pin, the verdict is what counts.
    if (options.allowPrivateNetwork || allowed.has(url.origin)) return { ok: true, addresses: [] };
    const cache = options.cache;
    if (!cache) return await guardHost(url, options.resolveDns);
    let verdict = cache.get(url.hostname);
    if (!verdict) {
      verdict = guardHost(url, options.resolveDns);
      cache.set(url.hostname, verdict);
    }
    return await verdict;
  };
}

/** One paused request, as CDP describes it. */
export interface PausedRequest {
  url: string;
  resourceType: string;
}

/** Continue the request, or fail it with the reason (kept for the page's status). */
export type Verdict = { allow: true } | { allow: false; reason: string; guarded: boolean };

/** Decides one paused request: blocked types first, then the guard. */
export async function decide(request: PausedRequest, guard: RequestGuard): Promise<Verdict> {
  if (BLOCKED_RESOURCE_TYPES.has(request.resourceType)) {
    return { allow: false, reason: `${request.resourceType} not loaded`, guarded: false };
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { allow: false, reason: `not a URL: ${request.url}`, guarded: true };
  }
  const verdict = await guard(url);
  return verdict.ok ? { allow: true } : { allow: false, reason: verdict.reason, guarded: true };
}
