/**
 * The servers under load, measured from outside against the real program:
 *
 * - `quarry serve` answers `/health` as fast while slow, heavy page reads run
 *   as when idle (p50/p99 latency, the same run; the ratio is the number).
 * - `quarry mcp` start-up: spawn → initialize → tools/list, against plain
 *   `quarry --version` as the cost of starting the program at all.
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DEFAULT_ROUTES, type Route, startFixtureWeb } from "../tests/support/fixture_web.ts";
import { startQuarryServer } from "../tests/support/quarry_server.ts";
import { quarryCommand, tempHome } from "../tests/support/run_quarry.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

/** Paragraphs of the synthetic page used when the corpus is absent. */
const SYNTHETIC_PARAGRAPHS = 300;
/** How long each page takes to arrive, so reads overlap as on the web. */
const PAGE_DELAY_MS = 150;
/** Reads kept running at once during the loaded phase. */
const CONCURRENT_READS = 8;
/** Pages per read, as a search reads its top results at once. */
const URLS_PER_READ = 5;

function syntheticPage(): string {
  const words = "stone wall course batter hearting through coping frost drain field".split(" ");
  const paragraphs = Array.from({ length: SYNTHETIC_PARAGRAPHS }, (_, i) => {
    const text = Array.from({ length: 60 }, (_, j) => words[(i * 7 + j) % words.length]).join(" ");
    return `<p>${text}. <a href="/p/${i}">link ${i}</a></p>`;
  });
  return `<!doctype html><html lang="en"><head><title>Synthetic page</title></head><body>` +
    `<article><h1>Synthetic page</h1>${paragraphs.join("\n")}</article></body></html>`;
}

/** Real article pages (Readability's test pages) when the corpus is there. */
async function loadPages(
  corpora: string | undefined,
): Promise<{ pages: string[]; source: string }> {
  const dir = corpora && `${corpora}/extraction/readability-pages`;
  const pages: string[] = [];
  if (dir) {
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isDirectory) {
          pages.push(await Deno.readTextFile(`${dir}/${entry.name}/source.html`));
        }
      }
    } catch {
      pages.length = 0;
    }
  }
  if (pages.length > 0) return { pages, source: `${pages.length} real pages (readability-pages)` };
  return { pages: [syntheticPage()], source: "synthetic page (corpus absent)" };
}

/** `/bench/page/<n>.html`: page n of the set, after a delay. */
function pagesRoute(pages: string[]): Route {
  return async (_req, url) => {
    const match = /^\/bench\/page\/(\d+)\.html$/.exec(url.pathname);
    if (!match) return undefined;
    await new Promise((r) => setTimeout(r, PAGE_DELAY_MS));
    return new Response(pages[Number(match[1]) % pages.length], {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Pause between two /health probes, so probing is a trickle, not load. */
const PROBE_EVERY_MS = 10;

/** Probes /health for `ms`, one request at a time; latencies sorted. */
async function healthLatencies(origin: string, ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const started = performance.now();
    await (await fetch(`${origin}/health`)).arrayBuffer();
    out.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
  }
  return out.sort((a, b) => a - b);
}

async function serverUnderLoad(ctx: BenchContext): Promise<BenchSection> {
  const { quick } = ctx;
  const windowMs = quick ? 2_000 : 6_000;
  const { pages, source } = await loadPages(ctx.corpora);
  const web = await startFixtureWeb([pagesRoute(pages), ...DEFAULT_ROUTES]);
  const server = await startQuarryServer();
  let next = 0;
  const nextRead = () =>
    Array.from({ length: URLS_PER_READ }, () => `url=${web.origin}/bench/page/${next++}.html`)
      .join("&");
  try {
    await healthLatencies(server.origin, 300); // warm-up
    const idle = await healthLatencies(server.origin, windowMs);
    let reads = 0;
    let stop = false;
    const reader = async () => {
      while (!stop) {
        const res = await fetch(`${server.origin}/fetch?${nextRead()}&max=100`);
        await res.arrayBuffer();
        if (res.ok) reads++;
      }
    };
    const started = performance.now();
    const readers = Array.from({ length: CONCURRENT_READS }, reader);
    const loaded = await healthLatencies(server.origin, windowMs);
    const seconds = (performance.now() - started) / 1000;
    stop = true;
    await Promise.all(readers);
    const fmt = (xs: number[], p: number) => `${percentile(xs, p).toFixed(2)} ms`;
    const ratio = (p: number) => (percentile(loaded, p) / percentile(idle, p)).toFixed(2);
    const rows: BenchRow[] = [
      {
        metric: "/health p50",
        value: fmt(loaded, 0.5),
        baseline: fmt(idle, 0.5),
        note: `×${ratio(0.5)}`,
      },
      {
        metric: "/health p99",
        value: fmt(loaded, 0.99),
        baseline: fmt(idle, 0.99),
        note: `×${ratio(0.99)}`,
      },
      {
        metric: "/health max",
        value: fmt(loaded, 1),
        baseline: fmt(idle, 1),
        note: `${loaded.length} probes loaded, ${idle.length} idle`,
      },
      {
        metric: "page reads during the loaded phase",
        value: `${reads} (${(reads / seconds).toFixed(1)}/s)`,
        note: `${CONCURRENT_READS} reads at once, ${URLS_PER_READ} pages each; ${source}`,
      },
    ];
    return { title: "HTTP server: /health latency under concurrent page reads (vs idle)", rows };
  } finally {
    await server.close();
    await web.close();
  }
}

async function timeSpawn(args: string[]): Promise<number> {
  const spec = quarryCommand(args, await tempHome());
  const started = performance.now();
  await new Deno.Command(spec.command, {
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdout: "null",
    stderr: "null",
  }).output();
  return performance.now() - started;
}

async function mcpStartup(): Promise<{ initialized: number; listed: number }> {
  const spec = quarryCommand(["mcp"], await tempHome());
  const client = new Client({ name: "bench", version: "0" });
  const started = performance.now();
  await client.connect(
    new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      env: spec.env,
    }),
  );
  const initialized = performance.now();
  await client.listTools();
  const listed = performance.now();
  await client.close();
  return { initialized: initialized - started, listed: listed - initialized };
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

async function mcpStartupSection(quick: boolean): Promise<BenchSection> {
  const runs = quick ? 3 : 7;
  const plain: number[] = [];
  const init: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push(await timeSpawn(["--version"]));
    const t = await mcpStartup();
    init.push(t.initialized);
    list.push(t.listed);
  }
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  return {
    title: `MCP stdio start-up (median of ${runs})`,
    rows: [
      {
        metric: "spawn → initialize answered",
        value: ms(median(init)),
        baseline: `${ms(median(plain))} (quarry --version)`,
        note: `×${(median(init) / median(plain)).toFixed(2)}`,
      },
      { metric: "initialize → tools/list answered", value: ms(median(list)) },
    ],
  };
}

/** Runs the HTTP/MCP server benchmarks. */
export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  return [await serverUnderLoad(ctx), await mcpStartupSection(ctx.quick)];
}
