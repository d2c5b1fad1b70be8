/**
 * Pages that are cheap to send and costly to parse, under `/hostile/…`:
 *
 * - `nested?depth=N` is N nested `<div>`s around a paragraph.
 * - `elements?n=N` is one paragraph of N `<span>`s (slow for any DOM).
 * - `line?mb=N` is one paragraph of N MB on a single line.
 * - `endless` streams a page that never ends (until the web closes).
 * - `trickle` sends one byte a second, for ever.
 *
 * Network faults (hangs, trickles, gzip bombs) are under `/fault/…` (pages.ts).
 * @module
 */
import type { Route } from "../fixture_web.ts";

const TEXT = "Words a reader would want to read, repeated. ".repeat(20);
const MAX_DEPTH = 200_000;
const MAX_ELEMENTS = 1_000_000;
const MAX_MB = 20;

function page(body: string): Response {
  return new Response(
    `<!DOCTYPE html><html><head><title>hostile</title></head><body>${body}</body></html>`,
    {
      headers: { "content-type": "text/html; charset=utf-8" },
    },
  );
}

function count(url: URL, name: string, fallback: number, max: number): number {
  const n = Number(url.searchParams.get(name) ?? fallback);
  return Number.isFinite(n) ? Math.max(0, Math.min(max, n)) : fallback;
}

/** A body that sends `chunk` every `everyMs` until the web closes. */
function forever(chunk: Uint8Array, everyMs: number, closing: AbortSignal): Response {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (closing.aborted) return controller.close();
      return new Promise((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(chunk);
          resolve();
        }, everyMs);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
}

const ENDLESS_CHUNK = new TextEncoder().encode(`<p>${TEXT}</p>\n`.repeat(20));

/** The hostile pages. */
export const hostileRoutes: Route[] = [(_req, url, web) => {
  if (!url.pathname.startsWith("/hostile/")) return undefined;
  const name = url.pathname.slice("/hostile/".length);
  if (name === "nested") {
    const depth = count(url, "depth", 1000, MAX_DEPTH);
    return page("<div>".repeat(depth) + `<p>${TEXT}</p>` + "</div>".repeat(depth));
  }
  if (name === "elements") {
    const n = count(url, "n", 50_000, MAX_ELEMENTS);
    return page(`<p>${TEXT}</p><p>${"<span>w</span> ".repeat(n)}</p>`);
  }
  if (name === "line") {
    const chars = count(url, "mb", 5, MAX_MB) * 1024 * 1024;
    return page(`<p>${TEXT.repeat(Math.ceil(chars / TEXT.length)).slice(0, chars)}</p>`);
  }
  if (name === "endless") return forever(ENDLESS_CHUNK, 0, web.closing);
  if (name === "trickle") return forever(new TextEncoder().encode("x"), 1000, web.closing);
  return undefined;
}];
