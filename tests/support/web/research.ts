/**
 * A DuckDuckGo-shaped result page for research tests, at `/research/html/`:
 * its results point at article pages and faults on the same fixture web, so
 * a whole `quarry search` runs on loopback. Set `QUARRY_DDG_URL` to
 * `<origin>/research` to use it.
 * @module
 */
import type { Route } from "../fixture_web.ts";

/** One organic result of the research SERP. */
export interface SerpEntry {
  /** Path on the fixture web, or an absolute URL. */
  path: string;
  title: string;
  snippet: string;
}

/** The results every research SERP lists, in order. */
export const RESEARCH_RESULTS: readonly SerpEntry[] = [
  {
    path: "/pages/articles/http3.html",
    title: "HTTP/3 explained: QUIC, streams and head-of-line blocking",
    snippet:
      "HTTP/3 runs over QUIC instead of TCP, so one lost packet no longer stalls every stream.",
  },
  {
    path: "/pages/articles/http3.html?utm_source=newsletter&utm_medium=email",
    title: "HTTP/3 explained (newsletter copy)",
    snippet: "HTTP/3 runs over QUIC instead of TCP.",
  },
  {
    path: "/pages/articles/http2.html",
    title: "A practical guide to HTTP/2 multiplexing",
    snippet:
      "How HTTP/2 multiplexes streams over one TCP connection, and why its head-of-line blocking led HTTP/3 to QUIC.",
  },
  {
    path: "https://x.com/someone/status/1",
    title: "HTTP/3 QUIC thread",
    snippet: "A thread about HTTP/3 and QUIC head-of-line blocking.",
  },
  {
    path: "/pages/articles/link-list.html",
    title: "HTTP/3 QUIC resources",
    snippet: "Links about HTTP/3, QUIC and head-of-line blocking.",
  },
  {
    path: "/pages/articles/spa.html?q=http3-quic",
    title: "HTTP/3 QUIC dashboard",
    snippet: "Live HTTP/3 QUIC statistics on head-of-line blocking.",
  },
  {
    path: "/fault/hang?topic=http3-quic",
    title: "HTTP/3 QUIC benchmarks",
    snippet: "Benchmarks of HTTP/3 and QUIC head-of-line blocking.",
  },
  {
    path: "/pages/articles/sourdough.html",
    title: "How to keep a sourdough starter alive",
    snippet: "Feed your starter with flour and water every day.",
  },
];

/** Good pages that sit below five failing ones, for "keep reading further candidates". */
export const FAILING_FIRST_RESULTS: readonly SerpEntry[] = [
  ...[500, 502, 503, 404, 410].map((code) => ({
    path: `/fault/status/${code}?topic=http3-quic`,
    title: `HTTP/3 QUIC head-of-line blocking mirror ${code}`,
    snippet: "Why HTTP/3 over QUIC avoids head-of-line blocking.",
  })),
  RESEARCH_RESULTS[0]!,
  RESEARCH_RESULTS[2]!,
  {
    path: "/pages/articles/http3.html?mirror=1",
    title: "HTTP/3 explained (mirror): QUIC and head-of-line blocking",
    snippet: "HTTP/3 runs over QUIC, so a lost packet stalls only its own stream.",
  },
  {
    path: "/pages/articles/http2.html?mirror=1",
    title: "HTTP/2 multiplexing and head-of-line blocking (mirror)",
    snippet: "Why HTTP/2 head-of-line blocking led HTTP/3 to QUIC.",
  },
];

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}

/** DuckDuckGo HTML markup for the entries, with redirect-wrapped links. */
export function researchSerp(origin: string, entries: readonly SerpEntry[]): string {
  const rows = entries.map((e) => {
    const target = e.path.startsWith("http") ? e.path : `${origin}${e.path}`;
    const href = `//duckduckgo.com/l/?uddg=${encodeURIComponent(target)}&amp;rut=abc`;
    return `<div class="result results_links results_links_deep web-result">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="${href}">${
      escape(e.title)
    }</a></h2>
    <a class="result__snippet" href="${href}">${escape(e.snippet)}</a>
  </div>
</div>`;
  });
  return `<!DOCTYPE html><html><head><title>DuckDuckGo</title></head><body>
<div id="links" class="results">
${rows.join("\n")}
</div></body></html>`;
}

/** Serves the research SERP for any query. */
const serveResearchSerp: Route = (req, url, web) => {
  if (url.pathname !== "/research/html/" || req.method !== "POST") return undefined;
  return new Response(researchSerp(web.origin, RESEARCH_RESULTS), {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
};

/** Serves a SERP whose first five results fail, at `/research-failing/html/`. */
const serveFailingFirstSerp: Route = (req, url, web) => {
  if (url.pathname !== "/research-failing/html/" || req.method !== "POST") return undefined;
  return new Response(researchSerp(web.origin, FAILING_FIRST_RESULTS), {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
};

/** Research routes in the order they are tried. */
export const researchRoutes: Route[] = [serveResearchSerp, serveFailingFirstSerp];
