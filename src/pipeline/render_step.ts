/**
 * The read path's render step: after extraction, a page that came back empty
 * or as a JavaScript shell is rendered in a browser (`--render auto`), or
 * every HTML page is (`always`), and the rendered DOM goes through the same
 * extraction as fetched HTML. Light on purpose: the browser client itself
 * (`render.ts`) is imported only when a render happens.
 * @module
 */
import { extract } from "./extract/mod.ts";
import type { ExtractFn } from "./extract/pool.ts";
import type { PageRead } from "./read.ts";
import type { ExtractResult, PageStatus } from "./types.ts";

/** When pages are rendered in the browser. */
export const RENDER_MODES = ["auto", "always", "never"] as const;

/** `auto`: only empty pages and JavaScript shells; `always`: every HTML page; `never`. */
export type RenderMode = typeof RENDER_MODES[number];

/** What rendering one page produced. A failure is a value with a page status. */
export type RenderOutcome =
  | { ok: true; html: string; finalUrl: string; elapsedMs: number; httpStatus?: number }
  | { ok: false; status: PageStatus; reason: string; elapsedMs: number };

/** A browser that renders pages (see `render.ts`). */
export interface Renderer {
  render(
    url: string,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<RenderOutcome>;
}

/** What the render step needs. */
export interface RenderDeps {
  mode: RenderMode;
  /** Absent when no browser is configured (`QUARRY_BROWSER_URL`). */
  renderer?: Renderer | undefined;
  extract?: ExtractFn | undefined;
  signal?: AbortSignal | undefined;
}

/** How a user gives Quarry a browser, said wherever one was missing. */
export const BROWSER_HINT =
  "set QUARRY_BROWSER_URL to a Chromium started with --headless --remote-debugging-port=9222 " +
  "(e.g. QUARRY_BROWSER_URL=http://127.0.0.1:9222) to render it";

/** Below this many characters of text, a page with scripts is taken for a JavaScript shell. */
export const SHELL_MAX_TEXT_CHARS = 200;
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const SCRIPT_TAG = /<script\b/i;

function isHtml(page: PageRead): boolean {
  const type = page.fetch.contentType;
  return page.fetch.status === "ok" && page.fetch.body !== undefined &&
    (type === undefined || HTML_TYPES.has(type));
}

/**
 * Whether a page looks built by JavaScript: extraction found nothing, or
 * found only a little text in a page that carries scripts.
 */
export function looksLikeShell(page: PageRead): boolean {
  if (!isHtml(page) || page.revalidated) return false;
  if (page.status === "empty") return true;
  const text = page.extracted?.article.text ?? "";
  return text.length < SHELL_MAX_TEXT_CHARS && SCRIPT_TAG.test(page.fetch.body ?? "");
}

/** Whether `mode` asks for this page to be rendered. */
export function needsRender(page: PageRead, mode: RenderMode): boolean {
  if (mode === "never") return false;
  if (mode === "always") return isHtml(page) && !page.revalidated;
  return looksLikeShell(page);
}

function withReason(page: PageRead, more: string): PageRead {
  return { ...page, reason: page.reason ? `${page.reason}; ${more}` : more };
}

async function extractRendered(
  html: string,
  url: string,
  deps: RenderDeps,
): Promise<ExtractResult | Error> {
  try {
    const options = { contentType: "text/html" };
    return deps.extract ? await deps.extract(html, url, options) : extract(html, url, options);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Renders the page when the mode asks for it and a browser is configured;
 * otherwise returns it as it was (with a hint when a render would have
 * helped). A failed render keeps what the plain fetch found.
 */
export async function renderIfNeeded(page: PageRead, deps: RenderDeps): Promise<PageRead> {
  if (!needsRender(page, deps.mode)) return page;
  if (!deps.renderer) return page.status === "ok" ? page : withReason(page, BROWSER_HINT);
  const outcome = await deps.renderer.render(
    page.fetch.finalUrl,
    deps.signal ? { signal: deps.signal } : {},
  );
  if (!outcome.ok) {
    // A page that read fine without the browser stays as it was.
    if (page.status === "ok") return page;
    return withReason(page, `rendering failed: ${outcome.status} (${outcome.reason})`);
  }
  const done = await extractRendered(outcome.html, page.fetch.finalUrl, deps);
  if (done instanceof Error) {
    return withReason(page, `could not extract the rendered page: ${done.message}`);
  }
  if (done.status !== "ok" && page.status === "ok") return page;
  const { reason: _old, ...rest } = page;
  return {
    ...rest,
    extracted: done,
    status: done.status,
    rendered: true,
    ...(done.reason === undefined ? {} : { reason: `rendered: ${done.reason}` }),
  };
}
