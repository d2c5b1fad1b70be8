/**
 * What obeying robots.txt costs a batch of page reads, in process against
 * the fixture web (loopback, pages answering after a short delay as on the
 * web): a plain read is the baseline, then the same read under robots.txt
 * with nothing cached (one robots.txt fetch per origin first) and with the
 * answer already in KV.
 * @module
 */
import { fetchAll, type FetchDeps } from "../src/pipeline/fetch.ts";
import { checkRobots, type RobotsDeps } from "../src/pipeline/robots.ts";
import { kvRobots } from "../src/store/kv/robots.ts";
import { DEFAULT_ROUTES, type Route, startFixtureWeb } from "../tests/support/fixture_web.ts";
import type { BenchContext, BenchSection } from "./types.ts";

/** Pages in one batch, as a search reads its top results at once. */
const PAGES = 8;
/** Delay of every page and of robots.txt, so the round trip is not free. */
const DELAY_MS = 40;

const slow: Route = async (_req, url) => {
  if (url.pathname !== "/robots.txt" && !url.pathname.startsWith("/pages/")) return undefined;
  await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
  return undefined;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs the suite. */
export async function run(ctx: BenchContext): Promise<BenchSection> {
  const rounds = ctx.quick ? 3 : 15;
  const web = await startFixtureWeb([slow, ...DEFAULT_ROUTES]);
  const dir = await Deno.makeTempDir({ prefix: "quarry-bench-robots-" });
  const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
  const net: FetchDeps = { fetch, resolveDns: () => Promise.resolve(["127.0.0.1"]), now: Date.now };
  const options = { allowPrivateNetwork: true, timeoutMs: 5000 };
  const urls = Array.from(
    { length: PAGES },
    (_, i) => `${web.origin}/pages/articles/http3.html?copy=${i}`,
  );
  const robotsDeps = (cache: RobotsDeps["cache"]): RobotsDeps => ({
    ...net,
    cache,
    fetchOptions: { userAgent: "Quarry/bench", allowPrivateNetwork: true },
  });
  const noCache: RobotsDeps["cache"] = {
    get: () => Promise.resolve(undefined),
    set: () => Promise.resolve(),
  };
  const time = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };
  const plain: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  try {
    const cached = robotsDeps(kvRobots(kv, Date.now));
    await checkRobots(urls, cached); // fills KV once
    for (let i = 0; i < rounds; i++) {
      plain.push(await time(() => fetchAll(urls, options, net)));
      cold.push(
        await time(async () => {
          await checkRobots(urls, robotsDeps(noCache));
          await fetchAll(urls, options, net);
        }),
      );
      warm.push(
        await time(async () => {
          await checkRobots(urls, cached);
          await fetchAll(urls, options, net);
        }),
      );
    }
  } finally {
    kv.close();
    await web.close();
    await Deno.remove(dir, { recursive: true });
  }
  const base = median(plain);
  const row = (metric: string, values: number[]) => ({
    metric,
    value: `${median(values).toFixed(1)} ms`,
    baseline: `${base.toFixed(1)} ms`,
    note: `× ${(median(values) / base).toFixed(2)} of a plain read`,
  });
  return {
    title: `robots.txt: a batch of ${PAGES} pages from one origin (${DELAY_MS} ms per answer)`,
    rows: [
      { metric: "plain read (median)", value: `${base.toFixed(1)} ms`, note: `${rounds} rounds` },
      row("robots.txt fetched first (nothing cached)", cold),
      row("robots.txt answer from KV", warm),
    ],
  };
}
