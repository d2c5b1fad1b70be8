/// <reference lib="dom" />
/**
 * Extraction quality and speed. trafilatura-eval: micro P/R/F1 of the
 * `with`/`without` snippets (metric of ../shared/corpora/README.md) and
 * ms/page, for Quarry's `extract()` and, in the same run, Readability over
 * jsdom as the baseline. readability-pages: how many of Mozilla's cases give
 * the same article text and metadata as upstream expects.
 * @module
 */
import { Readability } from "@mozilla/readability";
import { JSDOM, VirtualConsole } from "jsdom";
import { parseHTML } from "linkedom";
import { extract } from "../src/pipeline/extract/mod.ts";
import { toIsoDate } from "../src/pipeline/extract/metadata.ts";
import { decodeBody } from "../src/pipeline/charset.ts";
import type { Article } from "../src/pipeline/types.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

/** Pages a `--quick` run scores (spread evenly over the corpus). */
const QUICK_PAGES = 100;
/** Pages run once before timing so both sides are measured warm. */
const WARMUP_PAGES = 5;
const TARGET_F1 = 0.885;
const TARGET_TIME_RATIO = 0.25;
/** The page URL and options of Readability's own test harness. */
const READABILITY_TEST_URL = "http://fakehost/test/page.html";
const READABILITY_TEST_CLASSES = ["caption"];
const WS_RE = /\s+/g;

interface EvalPage {
  url: string;
  html: string;
  with: string[];
  without: string[];
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  ms: number;
  pages: number;
}

const collapse = (s: string): string => s.replace(WS_RE, " ").trim();

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Every `n`-th item so a quick run still spans the corpus. */
function sample<T>(items: T[], quick: boolean, size: number): T[] {
  if (!quick || items.length <= size) return items;
  const step = items.length / size;
  return Array.from({ length: size }, (_, i) => items[Math.floor(i * step)]!);
}

async function loadEval(dir: string, quick: boolean): Promise<EvalPage[]> {
  const index = JSON.parse(await Deno.readTextFile(`${dir}/evaldata.json`)) as Record<
    string,
    { file: string; with?: string[]; without?: string[] }
  >;
  const pages: EvalPage[] = [];
  for (const [url, entry] of sample(Object.entries(index), quick, QUICK_PAGES)) {
    const cached = `${dir}/cache/${entry.file}`;
    const path = (await exists(cached)) ? cached : `${dir}/eval/${entry.file}`;
    const html = decodeBody(await Deno.readFile(path), "text/html").text;
    pages.push({ url, html, with: entry.with ?? [], without: entry.without ?? [] });
  }
  return pages;
}

/** Pages each side runs in turn, so both meet the same machine load. */
const CHUNK_PAGES = 10;

function emptyCounts(pages: number): Counts {
  return { tp: 0, fp: 0, fn: 0, tn: 0, ms: 0, pages };
}

function scorePage(c: Counts, page: EvalPage, run: (page: EvalPage) => string): void {
  const t0 = performance.now();
  const text = collapse(run(page));
  c.ms += performance.now() - t0;
  for (const s of page.with) text.includes(collapse(s)) ? c.tp++ : c.fn++;
  for (const s of page.without) text.includes(collapse(s)) ? c.fp++ : c.tn++;
}

/**
 * Scores and times both extractors over every page after a warm-up,
 * alternating in chunks so a busy moment of the machine hits both.
 */
function scoreBoth(
  pages: EvalPage[],
  ours: (page: EvalPage) => string,
  base: (page: EvalPage) => string,
): [Counts, Counts] {
  for (const page of pages.slice(0, WARMUP_PAGES)) {
    ours(page);
    base(page);
  }
  const o = emptyCounts(pages.length);
  const b = emptyCounts(pages.length);
  for (let i = 0; i < pages.length; i += CHUNK_PAGES) {
    const chunk = pages.slice(i, i + CHUNK_PAGES);
    for (const page of chunk) scorePage(o, page, ours);
    for (const page of chunk) scorePage(b, page, base);
  }
  return [o, b];
}

const prf = (c: Counts) => ({
  p: c.tp / (c.tp + c.fp),
  r: c.tp / (c.tp + c.fn),
  f1: (2 * c.tp) / (2 * c.tp + c.fp + c.fn),
});

function jsdomText(page: EvalPage): string {
  try {
    const dom = new JSDOM(page.html, { url: page.url, virtualConsole: new VirtualConsole() });
    const text = new Readability(dom.window.document).parse()?.textContent ?? "";
    dom.window.close();
    return text;
  } catch {
    return ""; // A page jsdom or Readability rejects scores as an empty extraction.
  }
}

async function trafilaturaSection(ctx: BenchContext, corpora: string): Promise<BenchSection> {
  const title = "Extraction: trafilatura-eval (main-content snippets)";
  const dir = `${corpora}/extraction/trafilatura-eval`;
  if (!(await exists(dir))) return { title, rows: [], skipped: `${dir} is absent` };
  const pages = await loadEval(dir, ctx.quick);
  const [ours, base] = scoreBoth(
    pages,
    (page) => extract(page.html, page.url).article.text,
    jsdomText,
  );
  const o = prf(ours);
  const b = prf(base);
  const oms = ours.ms / ours.pages;
  const bms = base.ms / base.pages;
  const f = (x: number) => x.toFixed(3);
  return {
    title: `${title}, ${pages.length} pages`,
    rows: [
      { metric: "precision", value: f(o.p), baseline: f(b.p), note: "baseline: Readability/jsdom" },
      { metric: "recall", value: f(o.r), baseline: f(b.r) },
      {
        metric: "F1",
        value: f(o.f1),
        baseline: f(b.f1),
        note: `target ≥ ${TARGET_F1}: ${o.f1 >= TARGET_F1 ? "met" : "NOT met"}`,
      },
      {
        metric: "ms/page",
        value: oms.toFixed(1),
        baseline: bms.toFixed(1),
        note: `ratio ${(oms / bms).toFixed(2)} (target ≤ ${TARGET_TIME_RATIO}: ${
          oms / bms <= TARGET_TIME_RATIO ? "met" : "NOT met"
        })`,
      },
    ],
  };
}

interface ExpectedMetadata {
  title?: string | null;
  byline?: string | null;
  lang?: string | null;
  excerpt?: string | null;
  siteName?: string | null;
  publishedTime?: string | null;
}

/** Text with all whitespace removed: block separators are layout, not content. */
const squeeze = (s: string): string => s.replace(WS_RE, "");
const orNull = (s: string | null | undefined): string | null => (s ? collapse(s) : null);

/**
 * Fields where `article` differs from Readability's expected metadata;
 * with `extraOk`, a value where Readability has none does not count.
 */
function metadataDiff(meta: ExpectedMetadata, article: Article, extraOk = false): string[] {
  const fields: [string, string | null, string | null][] = [
    ["title", orNull(meta.title), orNull(article.title)],
    ["byline", orNull(meta.byline), orNull(article.byline)],
    ["lang", orNull(meta.lang), orNull(article.lang)],
    ["excerpt", orNull(meta.excerpt), orNull(article.excerpt)],
    ["siteName", orNull(meta.siteName), orNull(article.site)],
    ["published", toIsoDate(orNull(meta.publishedTime)), article.published],
  ];
  return fields.filter(([, want, got]) => want !== got && !(extraOk && want === null))
    .map(([field]) => field);
}

async function readabilitySection(corpora: string): Promise<BenchSection> {
  const title = "Extraction: readability-pages (Mozilla's test cases)";
  const dir = `${corpora}/extraction/readability-pages`;
  if (!(await exists(dir))) return { title, rows: [], skipped: `${dir} is absent` };
  const cases: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isDirectory) cases.push(e.name);
  cases.sort();
  let sameText = 0;
  let sameRawText = 0;
  let sameMeta = 0;
  let sameOrMore = 0;
  let sameRawMeta = 0;
  const misses: Record<string, number> = {};
  for (const name of cases) {
    const source = await Deno.readTextFile(`${dir}/${name}/source.html`);
    const expectedHtml = await Deno.readTextFile(`${dir}/${name}/expected.html`);
    const meta = JSON.parse(
      await Deno.readTextFile(`${dir}/${name}/expected-metadata.json`),
    ) as ExpectedMetadata;
    const options = { classesToPreserve: READABILITY_TEST_CLASSES };
    const { article } = extract(source, READABILITY_TEST_URL, options);
    const raw = extract(source, READABILITY_TEST_URL, { ...options, refine: false }).article;
    const expectedText = squeeze(
      parseHTML(`<html><body>${expectedHtml}</body></html>`).document.body.textContent ?? "",
    );
    if (expectedText === squeeze(article.text)) sameText++;
    if (expectedText === squeeze(raw.text)) sameRawText++;
    const differing = metadataDiff(meta, article);
    for (const field of differing) misses[field] = (misses[field] ?? 0) + 1;
    if (differing.length === 0) sameMeta++;
    if (metadataDiff(meta, raw).length === 0) sameRawMeta++;
    // A value where Readability found none (a date from <meta name=date>) is extra, not wrong.
    if (metadataDiff(meta, article, true).length === 0) sameOrMore++;
  }
  const missList = Object.entries(misses).map(([k, v]) => `${k} ${v}`).join(", ");
  const rows: BenchRow[] = [
    {
      metric: "same article text",
      value: `${sameText}/${cases.length}`,
      note: "whitespace ignored; refine drops captions, bylines, widgets and adds the lead",
    },
    {
      metric: "same article text, refine off",
      value: `${sameRawText}/${cases.length}`,
      note: "Readability over linkedom as Quarry runs it",
    },
    {
      metric: "same metadata",
      value: `${sameMeta}/${cases.length}`,
      note: `title, byline, lang, excerpt, siteName, publishedTime; differ: ${missList}`,
    },
    {
      metric: "same metadata, refine off",
      value: `${sameRawMeta}/${cases.length}`,
      note: 'refine replaces excerpts that are labels ("Contents")',
    },
    {
      metric: "same metadata or more",
      value: `${sameOrMore}/${cases.length}`,
      note: "counting values found where Readability has none as agreeing",
    },
  ];
  return { title: `${title}, ${cases.length} cases`, rows };
}

/** Runs both extraction benchmarks; skips when the corpora are absent. */
export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  if (ctx.corpora === undefined) {
    return [{ title: "Extraction", rows: [], skipped: "../shared/corpora is absent" }];
  }
  return [await trafilaturaSection(ctx, ctx.corpora), await readabilitySection(ctx.corpora)];
}
