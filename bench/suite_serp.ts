/**
 * Result-page parsers on the real pages of `corpora/serp/`: results found
 * against the counts checked by hand, and parse time against the floor of
 * the same run — linkedom parsing the page and nothing else.
 * @module
 */
import { parseHTML } from "linkedom";
import { parseBing } from "../src/pipeline/engines/bing.ts";
import { parseDuckDuckGo } from "../src/pipeline/engines/duckduckgo.ts";
import { parseDuckDuckGoLite } from "../src/pipeline/engines/duckduckgo_lite.ts";
import { parseGoogle } from "../src/pipeline/engines/google.ts";
import { parseMojeek } from "../src/pipeline/engines/mojeek.ts";
import type { Candidate } from "../src/pipeline/types.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

interface Page {
  file: string;
  expected: number;
  parse: (html: string, base: string) => Candidate[];
  base: string;
}

/** Counted by hand once (tests/pipeline/engines/conformance_test.ts pins the same). */
const PAGES: Page[] = [
  {
    file: "duckduckgo_html/ddg_html_pagina_1.html",
    expected: 10,
    parse: parseDuckDuckGo,
    base: "https://html.duckduckgo.com/html/",
  },
  {
    file: "duckduckgo_lite/ddg_lite_pagina_1.html",
    expected: 10,
    parse: parseDuckDuckGoLite,
    base: "https://lite.duckduckgo.com/lite/",
  },
  {
    file: "bing/test_serp.html",
    expected: 10,
    parse: parseBing,
    base: "https://www.bing.com/search",
  },
  {
    file: "mojeek/mojeek.html",
    expected: 10,
    parse: parseMojeek,
    base: "https://www.mojeek.com/search",
  },
  {
    file: "google/van-gogh-paintings.html",
    expected: 9,
    parse: parseGoogle,
    base: "https://www.google.com/search",
  },
  {
    file: "google/google_com.html",
    expected: 7,
    parse: parseGoogle,
    base: "https://www.google.com/search",
  },
];

const HEAD_END = /\r?\n\r?\n/;

function stripHead(raw: string): string {
  return raw.startsWith("HTTP/") ? raw.slice(raw.search(HEAD_END)).trimStart() : raw;
}

function timeMs(fn: () => void, runs: number): number {
  fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - started) / runs;
}

/** Runs the suite. */
export async function run(ctx: BenchContext): Promise<BenchSection> {
  const title = "SERP parsers (corpora/serp)";
  if (!ctx.corpora) return { title, rows: [], skipped: "corpora absent" };
  const runs = ctx.quick ? 3 : 20;
  const rows: BenchRow[] = [];
  let found = 0;
  let expected = 0;
  let ours = 0;
  let floor = 0;
  for (const page of PAGES) {
    const html = stripHead(await Deno.readTextFile(`${ctx.corpora}/serp/${page.file}`));
    const results = page.parse(html, page.base);
    found += Math.min(results.length, page.expected);
    expected += page.expected;
    const t = timeMs(() => page.parse(html, page.base), runs);
    const base = timeMs(() => parseHTML(html), runs);
    ours += t;
    floor += base;
    rows.push({
      metric: page.file,
      value: `${results.length} results, ${t.toFixed(1)} ms`,
      baseline: `${base.toFixed(1)} ms (parse only)`,
      note: results.length === page.expected ? "as counted" : `expected ${page.expected}`,
    });
  }
  rows.push({
    metric: "all pages",
    value: `${found}/${expected} results, ${ours.toFixed(1)} ms`,
    baseline: `${floor.toFixed(1)} ms`,
    note: `${(ours / floor).toFixed(2)}× the DOM parse alone`,
  });
  return { title, rows };
}
