/**
 * Excerpt quality: for each question of `bench/data/excerpts_qa.json`, does
 * the answer lie inside the excerpts rankExcerpts() picks from its page, at
 * 1000 and 3000 characters? Baseline, same run and same page text: the page's
 * first N characters. Pages are Quarry's own fixtures (`fixtures/rank/`) and
 * Readability's test articles from the shared corpora (skipped when absent).
 * @module
 */
import { extract } from "../src/pipeline/extract/mod.ts";
import { type ExcerptMode, rankExcerpts } from "../src/pipeline/rank/excerpts.ts";
import type { Block } from "../src/pipeline/types.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

interface QaEntry {
  source: "fixture" | "readability";
  page: string;
  question: string;
  answer: string;
}

const BUDGETS = [1000, 3000] as const;
const MODES: readonly ExcerptMode[] = ["search", "strict"];
/** URL the Readability test suite parses its pages with. */
const READABILITY_URL = "http://fakehost/test/page.html";
const QUOTES = /[\u2018\u2019\u02bc]/g;
const DOUBLE_QUOTES = /[\u201c\u201d]/g;
const SPACES = /\s+/g;

/** Case, whitespace and curly quotes folded, so a snippet matches across block joins. */
function norm(text: string): string {
  return text.toLowerCase().replace(QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(SPACES, " ");
}

function pct(n: number, of: number): string {
  return `${n}/${of} (${of === 0 ? 0 : Math.round((100 * n) / of)}%)`;
}

/** A page as the pipeline sees it after extraction. */
interface Page {
  blocks: Block[];
  title: string;
}

async function loadPage(ctx: BenchContext, e: QaEntry): Promise<Page | undefined> {
  let article;
  if (e.source === "fixture") {
    const html = await Deno.readTextFile(`${ctx.root}/fixtures/rank/${e.page}`);
    article = extract(html, `http://fixture.test/${e.page}`).article;
  } else {
    if (!ctx.corpora) return undefined;
    const dir = `${ctx.corpora}/extraction/readability-pages/${e.page}`;
    article = extract(await Deno.readTextFile(`${dir}/expected.html`), READABILITY_URL).article;
  }
  return { blocks: article.blocks, title: article.title };
}

/** Hit counts of one configuration over a set of questions. */
interface Tally {
  hits: number;
  chars: number;
  overBudget: number;
}

export async function run(ctx: BenchContext): Promise<BenchSection> {
  const title = "Excerpts: answer inside the excerpts vs the page's first N characters";
  const qa = JSON.parse(await Deno.readTextFile(`${ctx.root}/bench/data/excerpts_qa.json`)) as {
    questions: QaEntry[];
  };
  const cache = new Map<string, Page | undefined>();
  const usable: { e: QaEntry; page: Page; text: string }[] = [];
  let missing = 0;
  let skipped = 0;
  for (const e of qa.questions) {
    const key = `${e.source}:${e.page}`;
    if (!cache.has(key)) cache.set(key, await loadPage(ctx, e));
    const page = cache.get(key);
    if (!page) {
      skipped++;
      continue;
    }
    const text = page.blocks.map((b) => b.text).join("\n");
    if (!norm(text).includes(norm(e.answer))) {
      console.error(`excerpts: answer not on page ${key}: ${e.answer}`);
      missing++;
      continue;
    }
    usable.push({ e, page, text });
  }
  if (usable.length === 0) return { title, rows: [], skipped: "no usable questions" };

  const rows: BenchRow[] = [];
  const subsets = [
    { name: "all", items: usable },
    { name: "corpus pages", items: usable.filter((u) => u.e.source === "readability") },
    { name: "fixture pages", items: usable.filter((u) => u.e.source === "fixture") },
  ].filter((s) => s.items.length > 0);
  let rankMs = 0;
  let rankCalls = 0;
  for (const budget of BUDGETS) {
    for (const s of subsets) {
      const base = s.items.filter((u) => norm(u.text.slice(0, budget)).includes(norm(u.e.answer)))
        .length;
      for (const mode of MODES) {
        const t: Tally = { hits: 0, chars: 0, overBudget: 0 };
        for (const u of s.items) {
          const t0 = performance.now();
          const ex = rankExcerpts(u.page.blocks, u.e.question, {
            mode,
            budgetChars: budget,
            title: u.page.title,
          });
          rankMs += performance.now() - t0;
          rankCalls++;
          const used = ex.reduce((n, x) => n + x.text.length, 0);
          t.chars += used;
          if (used > budget) t.overBudget++;
          if (norm(ex.map((x) => x.text).join("\n")).includes(norm(u.e.answer))) t.hits++;
        }
        rows.push({
          metric: `${s.name} @${budget} chars, ${mode} mode`,
          value: pct(t.hits, s.items.length),
          baseline: `first ${budget}: ${pct(base, s.items.length)}`,
          note: `${(t.hits / Math.max(1, base)).toFixed(2)}× baseline; avg ${
            Math.round(t.chars / s.items.length)
          } chars used; over budget ${t.overBudget}`,
        });
      }
    }
  }
  // What passing the page title buys: it is the context of every sentence.
  for (const budget of BUDGETS) {
    const hits = usable.filter((u) => {
      const ex = rankExcerpts(u.page.blocks, u.e.question, { budgetChars: budget });
      return norm(ex.map((x) => x.text).join("\n")).includes(norm(u.e.answer));
    }).length;
    rows.push({
      metric: `all @${budget} chars, search mode, no title`,
      value: pct(hits, usable.length),
    });
  }
  rows.push({
    metric: "questions",
    value: String(usable.length),
    note: `${missing} answers not found on their page; ${skipped} skipped (corpora absent)`,
  });
  rows.push({
    metric: "rankExcerpts time per page",
    value: `${(rankMs / rankCalls).toFixed(1)} ms`,
  });
  return { title, rows };
}
