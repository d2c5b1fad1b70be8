/**
 * Result pages in each engine's own markup, for the engine farm: the same
 * structure the parsers read on the real pages (and the fixtures), built
 * from a list of results, and each engine's block page.
 * @module
 */
import type { EngineName } from "../../../src/pipeline/engines/types.ts";

/** One generated result. */
export interface FarmResult {
  url: string;
  title: string;
  snippet: string;
}

const HTML_SPECIAL = /[&<>"']/g;
const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const esc = (s: string) => s.replace(HTML_SPECIAL, (c) => ESCAPES[c]!);
const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${
    esc(title)
  }</title></head><body>${body}</body></html>`;

type Render = (q: string, results: FarmResult[]) => string;

const RENDER: Partial<Record<EngineName, Render>> = {
  duckduckgo: (q, rs) =>
    page(
      `${q} at DuckDuckGo`,
      `<div id="links">${
        rs.map((r) =>
          `<div class="result"><h2 class="result__title"><a class="result__a" href="//duckduckgo.com/l/?uddg=${
            encodeURIComponent(r.url)
          }">${esc(r.title)}</a></h2><a class="result__snippet">${esc(r.snippet)}</a></div>`
        ).join("")
      }</div>`,
    ),
  "duckduckgo-lite": (q, rs) =>
    page(
      `${q} at DuckDuckGo`,
      `<form action="/lite/" method="post"><input name="q" value="${esc(q)}"></form><table>${
        rs.map((r, i) =>
          `<tr><td>${i + 1}.</td><td><a class="result-link" href="${esc(r.url)}">${
            esc(r.title)
          }</a></td></tr><tr><td></td><td class="result-snippet">${esc(r.snippet)}</td></tr>`
        ).join("")
      }</table>`,
    ),
  bing: (q, rs) =>
    page(
      `${q} - Search`,
      `<ol id="b_results">${
        rs.map((r) =>
          `<li class="b_algo"><h2><a href="${esc(r.url)}">${
            esc(r.title)
          }</a></h2><div class="b_caption"><p>${esc(r.snippet)}</p></div></li>`
        ).join("")
      }</ol>`,
    ),
  mojeek: (q, rs) =>
    page(
      `${q} - Mojeek Search`,
      `<ul class="results-standard">${
        rs.map((r) =>
          `<li><h2><a class="title" href="${esc(r.url)}">${esc(r.title)}</a></h2><p class="s">${
            esc(r.snippet)
          }</p></li>`
        ).join("")
      }</ul>`,
    ),
  startpage: (_q, rs) =>
    page(
      "Startpage Search Results",
      rs.map((r) =>
        `<div class="result"><a class="result-title" href="${esc(r.url)}"><h2 class="wgl-title">${
          esc(r.title)
        }</h2></a><p class="description">${esc(r.snippet)}</p></div>`
      ).join(""),
    ),
  "brave-html": (q, rs) =>
    page(
      `${q} - Brave Search`,
      `<div id="results">${
        rs.map((r) =>
          `<div class="snippet" data-type="web"><div class="result-content"><a href="${
            esc(r.url)
          }"><div class="title">${
            esc(r.title)
          }</div></a><div class="generic-snippet"><div class="content">${
            esc(r.snippet)
          }</div></div></div></div>`
        ).join("")
      }</div>`,
    ),
};

/** A result page of `engine` listing `results`. */
export function renderResults(engine: EngineName, q: string, results: FarmResult[]): Response {
  if (engine === "wikipedia") {
    const search = results.map((r) => ({ title: r.title, snippet: esc(r.snippet) }));
    return Response.json({ batchcomplete: true, query: { search } });
  }
  const render = RENDER[engine];
  if (!render) return new Response(`no farm page for ${engine}`, { status: 501 });
  return new Response(render(q, results), {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

/** How an engine says no, as the real one does. */
export type BlockStyle = "anomaly" | "challenge" | "captcha" | "forbidden" | "throttle";

/** The block answer of a style; `retryAfter` in seconds for `throttle`. */
export function renderBlock(style: BlockStyle, retryAfter = 60): Response {
  const html = { "content-type": "text/html; charset=utf-8" };
  switch (style) {
    case "anomaly":
      // DuckDuckGo: HTTP 202 and the anomaly modal.
      return new Response(
        page("DuckDuckGo", '<div class="anomaly-modal"><form id="challenge-form"></form></div>'),
        { status: 202, headers: html },
      );
    case "challenge":
      // Bing: a 200 page with its CAPTCHA.
      return new Response(page("Bing", '<div id="b_captcha">Verify you are human</div>'), {
        headers: html,
      });
    case "captcha":
      // Google's /sorry/ page comes with 429.
      return new Response(page("Sorry", '<form id="captcha-form" action="/sorry/index"></form>'), {
        status: 429,
        headers: html,
      });
    case "forbidden":
      return new Response(page("403 - Forbidden", "<p>automated queries</p>"), {
        status: 403,
        headers: html,
      });
    case "throttle":
      return new Response("Too Many Requests", {
        status: 429,
        headers: { "retry-after": String(retryAfter) },
      });
  }
}
