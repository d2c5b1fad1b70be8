/**
 * PDF reading (issue 12). Three sections:
 *
 * 1. Speed over `../shared/corpora/pdf/`: ms/page and pages/s of Quarry's
 *    extractor (pdf.js via unpdf, in process), against `pdftotext` run on
 *    the same files in the same run (process start included: that is what
 *    using it costs).
 * 2. Text agreement with `pdftotext`: token-set F1, and F1 of ordered word
 *    pairs, which falls when reading order differs (two-column papers).
 * 3. Held-out article pages printed to PDF by Chromium: does `fetch --query`
 *    (strict excerpts) find the answers of `bench/data/excerpts_qa.json` as
 *    often in the PDFs as in the HTML pages? Target: within 3 points.
 * @module
 */
import { extract } from "../src/pipeline/extract/mod.ts";
import { extractPdf } from "../src/pipeline/extract/pdf.ts";
import { rankExcerpts } from "../src/pipeline/rank/excerpts.ts";
import type { Block } from "../src/pipeline/types.ts";
import { bigramF1, installed, pdftotext, printToPdf, tokenSetF1 } from "./pdf_measure.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

interface Entry {
  file: string;
  category: string;
  pages: number | null;
}

/** Quarry's default page cap: pdftotext is asked for the same pages. */
const MAX_PAGES = 300;
const BUDGETS = [1000, 3000] as const;

const mean = (xs: number[]) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
const f3 = (x: number) => x.toFixed(3);

export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  if (!ctx.corpora) {
    const skipped = "../shared/corpora is absent";
    return [{ title: "PDF", rows: [], skipped }];
  }
  const poppler = await installed("pdftotext");
  const sections = [await speedAndAgreement(ctx, poppler)];
  sections.push(await printedPages(ctx));
  return sections;
}

async function speedAndAgreement(ctx: BenchContext, poppler: boolean): Promise<BenchSection> {
  const title = "PDF: speed and text agreement over the corpus, against pdftotext";
  const dir = `${ctx.corpora}/pdf`;
  const index = JSON.parse(await Deno.readTextFile(`${dir}/index.json`)) as { files: Entry[] };
  const entries = ctx.quick ? index.files.slice(0, 10) : index.files;
  let ours = 0, theirs = 0, pages = 0;
  const statuses = new Map<string, number>();
  const agreement = new Map<string, { set: number[]; pairs: number[] }>();
  for (const e of entries) {
    const path = `${dir}/${e.file}`;
    const bytes = await Deno.readFile(path);
    const t0 = performance.now();
    const result = await extractPdf(bytes, `https://pdfs.example.org/${e.file}`);
    const ms = performance.now() - t0;
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
    const n = Math.min(e.pages ?? 0, MAX_PAGES);
    const ref = poppler ? await pdftotext(path, MAX_PAGES) : null;
    // Speed counts files both read, so the two page totals are the same pages.
    if (result.status === "ok" && n > 0 && (!poppler || ref?.text != null)) {
      ours += ms;
      pages += n;
      if (ref) theirs += ref.ms;
    }
    if (result.status === "ok" && ref?.text && ref.text.trim()) {
      const group = /^(ordinary text|multi-column)$/.test(e.category) ? e.category : "other";
      const a = agreement.get(group) ?? { set: [], pairs: [] };
      a.set.push(tokenSetF1(result.article.text, ref.text));
      a.pairs.push(bigramF1(result.article.text, ref.text));
      agreement.set(group, a);
      if (e.category === "multi-column") {
        console.error(`pdf: ${e.file} word-pair F1 ${f3(bigramF1(result.article.text, ref.text))}`);
      }
    }
  }
  const rows: BenchRow[] = [
    {
      metric: "files → status",
      value: [...statuses].map(([s, n]) => `${s} ${n}`).join(", "),
      note: `${entries.length} files`,
    },
    {
      metric: "ms/page (files read as ok)",
      value: `${(ours / pages).toFixed(1)} ms`,
      ...(poppler ? { baseline: `pdftotext ${(theirs / pages).toFixed(1)} ms` } : {}),
      note: poppler ? `${(ours / theirs).toFixed(2)}× pdftotext; ${pages} pages` : `${pages} pages`,
    },
    {
      metric: "pages/s",
      value: (pages / (ours / 1000)).toFixed(1),
      ...(poppler ? { baseline: `pdftotext ${(pages / (theirs / 1000)).toFixed(1)}` } : {}),
    },
  ];
  if (!poppler) rows.push({ metric: "text agreement", value: "pdftotext not installed" });
  for (const [group, a] of [...agreement].sort()) {
    rows.push({
      metric: `agreement with pdftotext, ${group} (${a.set.length} files)`,
      value: `word-set F1 ${f3(mean(a.set))}`,
      note: `word-pair F1 ${f3(mean(a.pairs))} (falls when reading order differs)`,
    });
  }
  return { title, rows };
}

interface QaEntry {
  source: "fixture" | "readability";
  page: string;
  question: string;
  answer: string;
}

const norm = (t: string) =>
  t.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, " ");

function found(blocks: Block[], e: QaEntry, budget: number, title: string): boolean {
  const excerpts = rankExcerpts(blocks, e.question, { mode: "strict", budgetChars: budget, title });
  return norm(excerpts.map((x) => x.text).join("\n")).includes(norm(e.answer));
}

async function printedPages(ctx: BenchContext): Promise<BenchSection> {
  const title = "PDF: held-out pages printed by Chromium — fetch --query answers, PDF vs HTML";
  if (!(await installed("chromium"))) return { title, rows: [], skipped: "chromium not installed" };
  const qa = JSON.parse(await Deno.readTextFile(`${ctx.root}/bench/data/excerpts_qa.json`)) as {
    questions: QaEntry[];
  };
  const tmp = await Deno.makeTempDir({ prefix: "quarry-bench-pdf-" });
  try {
    const pages = new Map<string, { html: Block[]; pdf: Block[] | null; title: string }>();
    const questions = ctx.quick ? qa.questions.slice(0, 10) : qa.questions;
    for (const e of questions) {
      const key = `${e.source}/${e.page}`;
      if (pages.has(key)) continue;
      const file = e.source === "fixture"
        ? `${ctx.root}/fixtures/rank/${e.page}`
        : `${ctx.corpora}/extraction/readability-pages/${e.page}/source.html`;
      const url = `https://articles.example.org/${key}`;
      const article = extract(await Deno.readTextFile(file), url).article;
      const pdfPath = `${tmp}/${pages.size}.pdf`;
      const printed = await printToPdf(file, pdfPath);
      const pdf = printed ? await extractPdf(await Deno.readFile(pdfPath), `${url}.pdf`) : null;
      if (pdf?.status !== "ok") {
        console.error(`pdf: ${key} ${printed ? `${pdf?.status}: ${pdf?.reason}` : "not printed"}`);
      }
      pages.set(key, {
        html: article.blocks,
        pdf: pdf?.status === "ok" ? pdf.article.blocks : null,
        title: article.title,
      });
    }
    const rows: BenchRow[] = [];
    const printedOk = [...pages.values()].filter((p) => p.pdf).length;
    for (const budget of BUDGETS) {
      let html = 0, pdf = 0;
      for (const e of questions) {
        const page = pages.get(`${e.source}/${e.page}`)!;
        if (found(page.html, e, budget, page.title)) html++;
        if (page.pdf && found(page.pdf, e, budget, page.title)) pdf++;
      }
      const pct = (n: number) => (100 * n) / questions.length;
      const gap = pct(pdf) - pct(html);
      rows.push({
        metric: `answers found @${budget} chars, strict (fetch --query)`,
        value: `PDF ${pdf}/${questions.length} (${pct(pdf).toFixed(1)}%)`,
        baseline: `HTML ${html}/${questions.length} (${pct(html).toFixed(1)}%)`,
        note: `${gap >= 0 ? "+" : ""}${gap.toFixed(1)} points; target within 3: ${
          Math.abs(gap) <= 3 || gap > 0 ? "met" : "missed"
        }`,
      });
    }
    rows.push({
      metric: "pages printed and read",
      value: `${printedOk}/${pages.size}`,
      note: "Chromium --print-to-pdf, default headers and footers",
    });
    return { title, rows };
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
