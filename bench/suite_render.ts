/**
 * Rendering JavaScript pages (`deno task bench render`). Real article pages
 * from `../shared/corpora/extraction/` are served on loopback twice: as they
 * are (static), and as a JavaScript shell whose body a script fetches from
 * JSON and writes into the page. Both go through Quarry's read path (fetch →
 * extract → render step with `--render auto` → extract), against a real
 * headless Chromium.
 *
 * - Speed: ms/page of a shell read through the browser against a plain fetch
 *   of the same static page, same run (the baseline); peak browser tabs.
 * - Quality: for the questions of `bench/data/excerpts_qa.json` on
 *   Readability's test pages, is the answer inside the excerpts
 *   (`fetch --query`, strict mode, 3000 characters) — static against
 *   rendered; and on trafilatura's evaluation pages, the share of the
 *   `with` snippets found in the extracted text, static against rendered.
 *
 * The browser: `QUARRY_BROWSER_URL` or `QUARRY_TEST_BROWSER_URL`, else one
 * started from Debian's chromium; skipped when there is none.
 * @module
 */
import { decodeBody } from "../src/pipeline/charset.ts";
import { type PageRead, readPages } from "../src/pipeline/read.ts";
import { openRenderer } from "../src/pipeline/render.ts";
import { rankExcerpts } from "../src/pipeline/rank/excerpts.ts";
import { systemResolveDns } from "../src/pipeline/guard.ts";
import { testBrowser } from "../tests/support/browser.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

interface QaEntry {
  source: string;
  page: string;
  question: string;
  answer: string;
}

/** A corpus page served both ways. */
interface Served {
  id: string;
  html: string;
}

const TITLE = "Render: JavaScript-built pages against static ones";
const TRAFILATURA_PAGES = 60;
const QUICK_PAGES = 15;
const TABS = 4;
const SPACES = /\s+/g;
const QUOTES = /[\u2018\u2019\u02bc]/g;
const DOUBLE_QUOTES = /[\u201c\u201d]/g;
const BODY = /<body[^>]*>([\s\S]*)<\/body>/i;
const HEAD = /<head[^>]*>([\s\S]*?)<\/head>/i;
const SCRIPTS = /<script\b[\s\S]*?<\/script>/gi;

function norm(text: string): string {
  return text.toLowerCase().replace(QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(SPACES, " ")
    .trim();
}

function pct(n: number, of: number): string {
  return `${n}/${of} (${of === 0 ? 0 : ((100 * n) / of).toFixed(1)}%)`;
}

/**
 * The shell of a page: its own head (title, metadata) with scripts removed,
 * an empty body, and a script that fetches the body and writes it in.
 */
function shellOf(id: string, html: string): string {
  const head = (HEAD.exec(html)?.[1] ?? "").replace(SCRIPTS, "");
  return `<!DOCTYPE html><html><head>${head}</head><body><div id="app"></div>
<noscript>Please enable JavaScript.</noscript>
<script>
fetch(location.origin + "/data/${encodeURIComponent(id)}.json").then((r) => r.json()).then((d) => {
  document.getElementById("app").outerHTML = d.body;
});
</script></body></html>`;
}

function serve(pages: Map<string, Served>): { origin: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const m = /^\/(static|shell|data)\/(.+?)(\.json)?$/.exec(new URL(req.url).pathname);
    const page = m ? pages.get(decodeURIComponent(m[2]!)) : undefined;
    if (!m || !page) return new Response("not found", { status: 404 });
    const type = { "content-type": "text/html; charset=utf-8" };
    if (m[1] === "static") return new Response(page.html, { headers: type });
    if (m[1] === "shell") return new Response(shellOf(page.id, page.html), { headers: type });
    const body = (BODY.exec(page.html)?.[1] ?? page.html).replace(SCRIPTS, "");
    return Response.json({ body });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function readDecoded(path: string): Promise<string> {
  return decodeBody(await Deno.readFile(path), "text/html").text;
}

async function loadPages(corpora: string, quick: boolean) {
  const qa = JSON.parse(
    await Deno.readTextFile(new URL("./data/excerpts_qa.json", import.meta.url)),
  )
    .questions.filter((q: QaEntry) => q.source === "readability") as QaEntry[];
  const pages = new Map<string, Served>();
  for (const page of new Set(qa.map((q) => q.page))) {
    const html = await readDecoded(`${corpora}/extraction/readability-pages/${page}/source.html`);
    pages.set(`r-${page}`, { id: `r-${page}`, html });
  }
  const evalData = JSON.parse(
    await Deno.readTextFile(`${corpora}/extraction/trafilatura-eval/evaldata.json`),
  ) as Record<string, { file: string; with: string[] }>;
  const snippets = new Map<string, string[]>();
  const entries = Object.values(evalData).slice(0, quick ? QUICK_PAGES : TRAFILATURA_PAGES);
  for (const e of entries) {
    const dir = `${corpora}/extraction/trafilatura-eval`;
    const html = await readDecoded(`${dir}/cache/${e.file}`)
      .catch(() => readDecoded(`${dir}/eval/${e.file}`)).catch(() => undefined);
    if (html === undefined) continue;
    pages.set(`t-${e.file}`, { id: `t-${e.file}`, html });
    snippets.set(`t-${e.file}`, e.with);
  }
  return { qa, pages, snippets };
}

/** Reads URLs the way `fetch` does (`readPages`: fetch, extract, render step, auto), timed. */
async function read(urls: string[], renderer: ReturnType<typeof openRenderer> | undefined) {
  const deps = {
    fetch: globalThis.fetch,
    resolveDns: systemResolveDns,
    now: () => Date.now(),
    renderer,
  };
  const started = performance.now();
  const pages = await readPages(urls, {
    fetch: { allowPrivateNetwork: true, timeoutMs: 20_000 },
    render: "auto",
  }, deps);
  return { pages, ms: performance.now() - started };
}

/** Reads each URL alone, one after another: ms per page without queueing. */
async function readEach(urls: string[], renderer?: ReturnType<typeof openRenderer>) {
  const pages: PageRead[] = [];
  let ms = 0;
  for (const url of urls) {
    const one = await read([url], renderer);
    pages.push(one.pages[0]!);
    ms += one.ms;
  }
  return { pages, ms };
}

function textOf(page: PageRead | undefined): string {
  return page?.extracted?.article.text ?? "";
}

function answered(page: PageRead | undefined, q: QaEntry): boolean {
  const article = page?.extracted?.article;
  if (!article || page?.status !== "ok") return false;
  const excerpts = rankExcerpts(article.blocks, q.question, {
    mode: "strict",
    title: article.title,
    budgetChars: 3000,
  });
  return norm(excerpts.map((e) => e.text).join("\n")).includes(norm(q.answer));
}

/** Runs the suite. */
export async function run(ctx: BenchContext): Promise<BenchSection> {
  if (!ctx.corpora) return { title: TITLE, rows: [], skipped: "no ../shared/corpora" };
  const url = Deno.env.get("QUARRY_BROWSER_URL");
  const browser = url ? { url } : await testBrowser().catch(() => undefined);
  if (!browser) return { title: TITLE, rows: [], skipped: "no browser (QUARRY_BROWSER_URL)" };
  const { qa, pages, snippets } = await loadPages(ctx.corpora, ctx.quick);
  const web = serve(pages);
  const renderer = openRenderer({
    browserUrl: browser.url,
    maxTabs: TABS,
    timeoutMs: 20_000,
    // Only the loopback corpus server is let through: the pages' links to the
    // real web are refused by the guard, as they would be without a network.
    allowPrivateNetwork: false,
    allowOrigins: [web.origin],
    resolveDns: systemResolveDns,
    fetch: globalThis.fetch,
    now: () => Date.now(),
  });
  try {
    const ids = [...pages.keys()];
    const staticUrls = ids.map((id) => `${web.origin}/static/${encodeURIComponent(id)}`);
    const shellUrls = ids.map((id) => `${web.origin}/shell/${encodeURIComponent(id)}`);
    await read([shellUrls[0]!], renderer); // warm the connection and the browser
    const plain = await readEach(staticUrls);
    const rendered = await readEach(shellUrls, renderer);
    const batch = await read(shellUrls, renderer);
    const byId = (list: PageRead[]) => new Map(ids.map((id, i) => [id, list[i]]));
    const s = byId(plain.pages);
    const r = byId(rendered.pages);
    const qaStatic = qa.filter((q) => answered(s.get(`r-${q.page}`), q)).length;
    const qaRendered = qa.filter((q) => answered(r.get(`r-${q.page}`), q)).length;
    let snipTotal = 0, snipStatic = 0, snipRendered = 0;
    for (const [id, withs] of snippets) {
      const st = norm(textOf(s.get(id))), rt = norm(textOf(r.get(id)));
      for (const w of withs) {
        snipTotal++;
        if (st.includes(norm(w))) snipStatic++;
        if (rt.includes(norm(w))) snipRendered++;
      }
    }
    const n = ids.length;
    const renderedCount = rendered.pages.filter((p) => p.rendered).length;
    const shellsEmptyWithout = (await read(shellUrls.slice(0, 5), undefined)).pages
      .filter((p) => p.status === "empty").length;
    const rows: BenchRow[] = [
      {
        metric: `read a JS shell through the browser, ms/page (${n} pages, one at a time)`,
        value: (rendered.ms / n).toFixed(1),
        baseline: `${(plain.ms / n).toFixed(1)} (plain fetch of the static page)`,
        note: `${(rendered.ms / plain.ms).toFixed(1)}× the plain fetch`,
      },
      {
        metric: `all ${n} shells at once, wall ms (${TABS} tabs)`,
        value: batch.ms.toFixed(0),
        note: `${(batch.ms / n).toFixed(1)} ms/page; peak tabs ${renderer.peakTabs} of ${TABS}`,
      },
      {
        metric: "shells rendered by --render auto",
        value: pct(renderedCount, n),
        note: `without a browser: ${shellsEmptyWithout}/5 come back empty`,
      },
      {
        metric: `answer in excerpts (${qa.length} questions, Readability pages, strict, 3000)`,
        value: `rendered ${pct(qaRendered, qa.length)}`,
        baseline: `static ${pct(qaStatic, qa.length)}`,
        note: `${((100 * (qaRendered - qaStatic)) / Math.max(1, qa.length)).toFixed(1)} points`,
      },
      {
        metric: `'with' snippets in the text (${snippets.size} trafilatura pages)`,
        value: `rendered ${pct(snipRendered, snipTotal)}`,
        baseline: `static ${pct(snipStatic, snipTotal)}`,
        note: `${((100 * (snipRendered - snipStatic)) / Math.max(1, snipTotal)).toFixed(1)} points`,
      },
    ];
    return { title: TITLE, rows };
  } finally {
    await renderer.close();
    await web.close();
  }
}
