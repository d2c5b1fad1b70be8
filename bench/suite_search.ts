/**
 * End-to-end search timing on loopback: ten result pages on ten hosts that
 * answer after 100–900 ms and one that hangs. With `--timeout 2s` the search
 * should cost about the timeout plus a few hundred ms, and a repeated search
 * should be a cache hit. Times are whole `deno task quarry` runs minus the
 * program's own start-up, measured in the same run.
 * @module
 */
import type { BenchContext, BenchSection } from "./types.ts";
import { runRealPages } from "./search_real_pages.ts";

const PAGE_DELAYS_MS = [100, 200, 300, 400, 500, 600, 700, 800, 900, 850];
const TIMEOUT = "2s";
const QUERY = "how do solar sails propel spacecraft";
const RUNS = 3;

function article(i: number): string {
  const p = (s: string) => `<p>${s}</p>`;
  return `<!doctype html><html lang="en"><head><title>Solar sails and spacecraft propulsion, part ${i}</title></head>
<body><article><h1>Solar sails and spacecraft propulsion, part ${i}</h1>
${p("A solar sail propels a spacecraft with the pressure of sunlight instead of rocket fuel.")}
${p("Photons carry momentum, and when they reflect off a large mirror-like sail they push it gently away from the Sun.")}
${p("The thrust is tiny, but it never stops, so over months a sail can reach speeds that chemical rockets cannot.")}
${p(`Mission ${i} used a sail of thin aluminised polyimide film stretched on booms to test the idea in orbit.`)}
</article></body></html>`;
}

function serp(urls: string[]): string {
  const rows = urls.map((u, i) =>
    `<div class="result"><h2 class="result__title"><a class="result__a" href="${u}">Solar sails propel spacecraft ${i}</a></h2><a class="result__snippet">How solar sails propel spacecraft with sunlight.</a></div>`
  );
  return `<html><body><div id="links">${rows.join("")}</div></body></html>`;
}

async function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ ms: number; out: string }> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "quarry", ...args],
    env,
    stdout: "piped",
    stderr: "null",
  }).output();
  return { ms: performance.now() - started, out: new TextDecoder().decode(out.stdout) };
}

function elapsed(out: string): number {
  return (JSON.parse(out) as { metadata: { elapsed_ms: number } }).metadata.elapsed_ms;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs the timing benchmark. */
export async function run_(ctx: BenchContext): Promise<BenchSection[]> {
  return [await runTiming(ctx), await runRealPages(ctx)];
}

async function runTiming(ctx: BenchContext): Promise<BenchSection> {
  const servers: Deno.HttpServer[] = [];
  const hang = new AbortController();
  const urls: string[] = [];
  for (let i = 0; i < PAGE_DELAYS_MS.length + 1; i++) {
    const delay = PAGE_DELAYS_MS[i];
    const server = Deno.serve(
      { hostname: `127.0.0.${i + 2}`, port: 0, onListen: () => {} },
      async () => {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, delay ?? 60_000);
          hang.signal.addEventListener("abort", () => {
            clearTimeout(t);
            resolve();
          });
        });
        return new Response(article(i), { headers: { "content-type": "text/html" } });
      },
    );
    servers.push(server);
    urls.push(`http://127.0.0.${i + 2}:${server.addr.port}/solar-sails-${i}`);
  }
  // `/answering/html/` lists only the ten pages that answer; `/html/` adds the hanging one.
  const serpServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) =>
      new Response(
        serp(new URL(req.url).pathname.startsWith("/answering/") ? urls.slice(0, -1) : urls),
        { headers: { "content-type": "text/html" } },
      ),
  );
  servers.push(serpServer);
  const home = await Deno.makeTempDir({ prefix: "quarry-bench-" });
  const env = {
    QUARRY_HOME: home,
    QUARRY_ALLOW_PRIVATE_NETWORK: "1",
    QUARRY_RATE_LIMIT: "0",
    QUARRY_ENGINES: "duckduckgo",
    QUARRY_DDG_URL: `http://127.0.0.1:${serpServer.addr.port}`,
    NO_COLOR: "1",
  };
  try {
    const startup: number[] = [];
    const searches: number[] = [];
    const hits: number[] = [];
    const answering: number[] = [];
    const inside: number[] = [];
    const insideAnswering: number[] = [];
    const hitsInside: number[] = [];
    const answeringEnv = { ...env, QUARRY_DDG_URL: `${env.QUARRY_DDG_URL}/answering` };
    let lastOk = 0;
    let lastTimeout = 0;
    for (let r = 0; r < (ctx.quick ? 1 : RUNS); r++) {
      startup.push((await run(["--version"], env)).ms);
      const first = await run([
        "search",
        QUERY,
        "-n",
        "10",
        "--timeout",
        TIMEOUT,
        "--json",
        "--force",
      ], env);
      searches.push(first.ms);
      inside.push(elapsed(first.out));
      const parsed = JSON.parse(first.out) as { results?: { status: string }[] };
      if (!parsed.results) throw new Error(`search failed: ${first.out.slice(0, 500)}`);
      lastOk = parsed.results.filter((x) => x.status === "ok").length;
      lastTimeout = parsed.results.filter((x) => x.status === "timeout").length;
      const second = await run(["search", QUERY, "-n", "10", "--timeout", TIMEOUT, "--json"], env);
      if (!second.out.includes('"cache_hit":true')) {
        throw new Error("second search was not a cache hit");
      }
      hits.push(second.ms);
      hitsInside.push(elapsed(second.out));
      const third = await run(
        ["search", QUERY, "-n", "10", "--timeout", TIMEOUT, "--json", "--force"],
        answeringEnv,
      );
      answering.push(third.ms);
      insideAnswering.push(elapsed(third.out));
    }
    const base = median(startup);
    const search = median(searches) - base;
    const noHang = median(answering) - base;
    const slowest = Math.max(...PAGE_DELAYS_MS);
    return {
      title: "Search end to end (loopback, 10 pages 100–900 ms + 1 hanging, --timeout 2s)",
      rows: [
        { metric: "program start-up (median)", value: `${base.toFixed(0)} ms` },
        {
          metric: "search wall time minus start-up",
          value: `${search.toFixed(0)} ms`,
          baseline: `timeout ${TIMEOUT}`,
          note: `${(search / 2000).toFixed(2)}× the timeout; ${
            (search / slowest).toFixed(2)
          }× the slowest answering page`,
        },
        {
          metric: "search time inside the program (metadata.elapsed_ms)",
          value: `${median(inside)} ms`,
          baseline: `timeout ${TIMEOUT}`,
          note: `${(median(inside) / 2000).toFixed(2)}× the timeout`,
        },
        { metric: "pages ok / timed out", value: `${lastOk} / ${lastTimeout}` },
        {
          metric: "without the hanging page, inside the program",
          value: `${median(insideAnswering)} ms`,
          baseline: `slowest page ${slowest} ms`,
          note: `${(median(insideAnswering) / slowest).toFixed(2)}× the slowest page`,
        },
        {
          metric: "same search without the hanging page, minus start-up",
          value: `${noHang.toFixed(0)} ms`,
          baseline: `slowest page ${slowest} ms`,
          note: `${(noHang / slowest).toFixed(2)}× the slowest page`,
        },
        {
          metric: "repeated search (cache hit), inside the program",
          value: `${median(hitsInside)} ms`,
          baseline: `first search ${median(inside)} ms`,
          note: `${(median(hitsInside) / median(inside) * 100).toFixed(2)}% of the first search`,
        },
        {
          metric: "repeated search (cache hit), whole process",
          value: `${median(hits).toFixed(0)} ms`,
          baseline: `start-up ${base.toFixed(0)} ms`,
          note: "start-up dominates a cache hit",
        },
      ],
    };
  } finally {
    hang.abort();
    await Promise.all(servers.map((s) => s.shutdown()));
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

export { run_ as run };
