/**
 * The parsers against real pages and API answers that nobody on this project
 * wrote (`../shared/corpora/serp/`). Skipped when the corpora are absent.
 * Counts and first/last URLs were checked by hand once and are pinned here.
 */
import assert from "node:assert/strict";
import { QuarryError } from "../../../src/errors.ts";
import { parseBing } from "../../../src/pipeline/engines/bing.ts";
import { parseBrave } from "../../../src/pipeline/engines/brave.ts";
import { parseDuckDuckGo } from "../../../src/pipeline/engines/duckduckgo.ts";
import { parseDuckDuckGoLite } from "../../../src/pipeline/engines/duckduckgo_lite.ts";
import { parseExa } from "../../../src/pipeline/engines/exa.ts";
import { parseGoogle } from "../../../src/pipeline/engines/google.ts";
import { parseMojeek } from "../../../src/pipeline/engines/mojeek.ts";
import { parseSearxng } from "../../../src/pipeline/engines/searxng.ts";
import { parseStartpage } from "../../../src/pipeline/engines/startpage.ts";
import { parseBraveHtml } from "../../../src/pipeline/engines/brave_html.ts";
import type { Candidate } from "../../../src/pipeline/types.ts";

const CORPUS = new URL("../../../../shared/corpora/serp/", import.meta.url);

function present(): boolean {
  try {
    return Deno.statSync(CORPUS).isDirectory;
  } catch {
    return false;
  }
}

const ignore = !present();
if (ignore) console.warn(`conformance: ${CORPUS.pathname} is absent, skipping`);

const read = (path: string) => Deno.readTextFile(new URL(path, CORPUS));

/** The saved DuckDuckGo pages start with the HTTP status line and headers. */
async function readWithoutHead(path: string): Promise<string> {
  const raw = await read(path);
  if (!raw.startsWith("HTTP/")) return raw;
  const end = raw.search(/\r?\n\r?\n/);
  return end === -1 ? raw : raw.slice(end).trimStart();
}

/** Search hosts of the engines themselves: a clean result never points back at one. */
const ENGINE_HOSTS =
  /^(?:(?:www|html|lite)\.)?(?:duckduckgo\.com|bing\.com|google\.com|mojeek\.com)$|^search\.brave\.com$|startpage\.com$/;
const WRAPPER_PARAMS = ["uddg", "rut", "u", "ntb", "sa", "usg", "ved"];

function assertClean(results: Candidate[]): void {
  for (const r of results) {
    const url = new URL(r.url);
    assert.match(url.protocol, /^https?:$/, r.url);
    assert.doesNotMatch(url.hostname, ENGINE_HOSTS, r.url);
    for (const p of WRAPPER_PARAMS) assert.equal(url.searchParams.has(p), false, r.url);
    assert.ok(r.title.trim().length > 0, `title of ${r.url}`);
  }
  assert.equal(new Set(results.map((r) => r.url)).size, results.length, "duplicate URLs");
  assert.deepEqual(results.map((r) => r.rank), results.map((_, i) => i + 1));
}

interface Pinned {
  count: number;
  first: string;
  last: string;
}

function assertPinned(results: Candidate[], pinned: Pinned): void {
  assertClean(results);
  assert.equal(results.length, pinned.count);
  assert.equal(results[0]?.url, pinned.first);
  assert.equal(results.at(-1)?.url, pinned.last);
}

function assertThrowsCode(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => e instanceof QuarryError && e.code === code);
}

Deno.test({
  name: "parseDuckDuckGo() reads the April 2026 HTML page: 10 results, redirects unwrapped",
  ignore,
  fn: async () => {
    const html = await readWithoutHead("duckduckgo_html/ddg_html_pagina_1.html");
    const results = parseDuckDuckGo(html, "https://html.duckduckgo.com/html/");
    assertPinned(results, {
      count: 10,
      first: "https://rust-lang.org/",
      last: "https://www.programiz.com/rust",
    });
    assert.equal(results[1]!.url, "https://en.wikipedia.org/wiki/Rust_(programming_language)");
    assert.equal(results[1]!.title, "Rust (programming language) - Wikipedia");
    assert.match(results[0]!.snippet, /^Rust is a fast, reliable, and productive programming/);
  },
});

Deno.test({
  name: "parseDuckDuckGoLite() reads the April 2026 Lite page: 10 results with snippets",
  ignore,
  fn: async () => {
    const html = await readWithoutHead("duckduckgo_lite/ddg_lite_pagina_1.html");
    const results = parseDuckDuckGoLite(html, "https://lite.duckduckgo.com/lite/");
    assertPinned(results, {
      count: 10,
      first: "https://rust-lang.org/",
      last: "https://www.geeksforgeeks.org/rust/introduction-to-rust-programming-language/",
    });
    assert.ok(results.every((r) => r.snippet.length > 0));
  },
});

Deno.test({
  name: "parseBing() decodes the ck/a links of a real page to 10 clean targets",
  ignore,
  fn: async () => {
    const results = parseBing(await read("bing/test_serp.html"), "https://www.bing.com/search");
    assertPinned(results, {
      count: 10,
      first: "https://en.wikipedia.org/wiki/Microsoft",
      last: "https://en.wikipedia.org/wiki/Outline_of_Microsoft",
    });
    const dated = results.find((r) => r.url.includes("thoughtco.com"));
    assert.equal(dated?.published, "2020-01-10");
    assert.match(dated!.snippet, /^Learn how Microsoft was founded/);
  },
});

Deno.test({
  name: "parseBing() reports the 2026 challenge page as CAPTCHA",
  ignore,
  fn: async () => {
    const html = await read("bing/bing.html");
    assertThrowsCode(() => parseBing(html, "https://www.bing.com/search"), "CAPTCHA");
  },
});

Deno.test({
  name: "parseMojeek() reads a real page: 10 results",
  ignore,
  fn: async () => {
    const results = parseMojeek(await read("mojeek/mojeek.html"), "https://www.mojeek.com/search");
    assertPinned(results, {
      count: 10,
      first: "https://javascript.info/",
      last: "https://smartwebby.com/DHTML/",
    });
  },
});

Deno.test({
  name: "parseGoogle() gives exactly the expected parse of van-gogh-paintings",
  ignore,
  fn: async () => {
    const html = await read("google/van-gogh-paintings.html");
    const expected = JSON.parse(await read("google/van-gogh-paintings.json")) as {
      organic_results: { position: number; link: string; title: string; snippet: string }[];
    };
    const results = parseGoogle(html, "https://www.google.com/search");
    assertClean(results);
    const flat = (s: string) => s.replace(/\s+/g, " ").trim();
    assert.deepEqual(
      results.map((r) => ({
        position: r.rank,
        link: r.url,
        title: r.title,
        snippet: flat(r.snippet),
      })),
      expected.organic_results.map((e) => ({
        position: e.position,
        link: e.link,
        title: e.title,
        snippet: flat(e.snippet),
      })),
    );
  },
});

Deno.test({
  name: "parseGoogle() reads a newer German page (7 results) and flags the CAPTCHA page",
  ignore,
  fn: async () => {
    const results = parseGoogle(
      await read("google/google_com.html"),
      "https://www.google.com/search",
    );
    assertPinned(results, {
      count: 7,
      first: "https://www.test.de/",
      last:
        "https://www.ndr.de/nachrichten/hamburg/Positiver-Corona-Selbsttest-Kein-offizieller-Test-mehr-notwendig,corona11256.html",
    });
    const captcha = await read("google/search_captcha.html");
    assertThrowsCode(() => parseGoogle(captcha, "https://www.google.com/search"), "CAPTCHA");
  },
});

Deno.test({
  name: "parseSearxng() reads a real JSON answer: 27 results, dates where given",
  ignore,
  fn: async () => {
    const json = await read("searxng_json/searxng_response.json");
    const results = parseSearxng(json, "http://localhost:8888/search");
    assertPinned(results, {
      count: 27,
      first:
        "https://coffee.stackexchange.com/questions/6402/how-does-grind-size-affect-the-extraction-time-and-taste-of-espresso",
      last: "https://aeropress.com/pages/what-grind-size-should-i-use",
    });
    assert.equal(results.filter((r) => r.published).length, 13);
    assert.equal(results.find((r) => r.url.includes("coffeeness.de"))?.published, "2026-02-17");
  },
});

Deno.test({
  name: "parseBrave() reads a real web answer: 20 results, HTML stripped from snippets",
  ignore,
  fn: async () => {
    const results = parseBrave(await read("brave_api/web.json"), "https://api.search.brave.com/");
    assertPinned(results, {
      count: 20,
      first: "https://en.wikipedia.org/wiki/%22Hello,_World!%22_program",
      last: "https://gobyexample.com/hello-world",
    });
    assert.ok(
      results.every((r) => !r.snippet.includes("<strong>") && !r.snippet.includes("&quot;")),
    );
    assert.equal(results[0]!.published, "2024-12-27");
  },
});

Deno.test({
  name: "parseBrave() refuses a news answer rather than reading it as no results",
  ignore,
  fn: async () => {
    const json = await read("brave_api/news.json");
    assertThrowsCode(() => parseBrave(json, "https://api.search.brave.com/"), "UPSTREAM_ERROR");
  },
});

Deno.test({
  name: "parseExa() reads the collector's example: 2 results with text snippets and dates",
  ignore,
  fn: async () => {
    const results = parseExa(await read("exa_api/exa_search.json"), "https://api.exa.ai/search");
    assertPinned(results, {
      count: 2,
      first: "https://changebot.io/",
      last: "https://logmaster.dev/",
    });
    assert.equal(results[0]!.published, "2024-11-01");
    assert.match(results[0]!.snippet, /^ChangeBot automatically generates/);
  },
});

Deno.test({
  name:
    "parseStartpage() reads the saved Startpage page: 10 results, the ad and proxy links left out",
  ignore,
  fn: async () => {
    const html = await read("startpage/startpage.html");
    const results = parseStartpage(html, "https://www.startpage.com/sp/search");
    assertPinned(results, {
      count: 10,
      first: "https://www.w3schools.com/js/",
      last: "https://www.youtube.com/watch?v=lfmg-EJ8gm4",
    });
    assert.equal(results[0]!.title, "JavaScript Tutorial - W3Schools");
    assert.equal(results.at(-1)!.published, "2024-01-01");
    assert.match(results.at(-1)!.snippet, /^javascript #tutorial/);
  },
});

Deno.test({
  name: "parseBraveHtml() reads the saved Brave Search page: 20 web results, clusters left out",
  ignore,
  fn: async () => {
    const html = await read("brave_html/brave.html");
    const results = parseBraveHtml(html, "https://search.brave.com/search");
    assertPinned(results, {
      count: 20,
      first: "https://www.w3schools.com/js/",
      last: "https://www.simplilearn.com/tutorials/javascript-tutorial",
    });
    assert.equal(results[1]!.title, "The Modern JavaScript Tutorial");
    assert.equal(results.at(-1)!.published, "2025-12-01");
  },
});
