/**
 * Search storm: an agent-like workload of distinct queries at a steady pace
 * against the loopback engine farm (tests/support/web/engine_farm.ts), whose
 * engines block the way the real ones do. Time in the farm's rules and in
 * the cool-downs is scaled (a minute lasts three seconds); latencies are
 * real. Baselines in the same run: a DuckDuckGo-only chain (what most
 * keyless MCP servers do) and the sequential chain Quarry had before
 * (four engines in a fixed order, a 15-minute cool-down, no hedging).
 * Answer quality is nDCG@5 of the result list against the farm's graded
 * relevant pages, which is what decides the fusion default.
 * @module
 */
import { configFromEnv } from "../src/config.ts";
import { memoryHealth } from "../src/pipeline/engines/health.ts";
import { coolingUntil, type EngineHealth } from "../src/pipeline/engines/health.ts";
import { searchEngines } from "../src/pipeline/engines/mod.ts";
import { parseQuery } from "../src/pipeline/query.ts";
import { startFixtureWeb } from "../tests/support/fixture_web.ts";
import { engineFarm, engineList, realisticRules } from "../tests/support/web/engine_farm.ts";
import { fuseRanks } from "../src/pipeline/engines/fusion.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

const SCALE = 20;
const MINUTE = 60_000 / SCALE;
/** One search every ten (scaled) seconds: six a minute, as a busy agent does. */
const PACE_MS = 10_000 / SCALE;
const QUERIES = 120;
const QUICK_QUERIES = 40;
const FARM_URL = /\/farm\/([a-z-]+)\//;
const RELEVANT_URL = /^https:\/\/site(\d+)\.farm\.test\/t\d+\/\d+$/;

interface Setup {
  name: string;
  env: Record<string, string>;
  engines?: string[];
  fusion?: number;
  count?: number;
}

interface Outcome {
  name: string;
  answered5: number;
  /** Share of searches with as many results as asked for. */
  full: number;
  meanResults: number;
  p50: number;
  p95: number;
  blockedRequests: number;
  requests: number;
  coolingViolations: number;
  ndcg: number;
  failures: number;
  /** Error codes of the searches that failed, with counts. */
  errors: Map<string, number>;
  /** Searches that answered with fewer than 5 results although they succeeded. */
  short: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const id = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(id);
      reject(signal.reason);
    }, { once: true });
  });

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
}

/** Pages past this rank in the farm's truth count as not relevant. */
const GRADED = 20;

/** nDCG@5 with gain (20 − j) / 20 for the farm's j-th relevant page, 0 for anything else. */
function ndcg5(urls: string[]): number {
  const gain = (j: number) => Math.max(0, (GRADED - j) / GRADED);
  const dcg = urls.slice(0, 5).reduce((sum, url, i) => {
    const m = RELEVANT_URL.exec(url);
    return sum + (m ? gain(Number(m[1])) : 0) / Math.log2(i + 2);
  }, 0);
  const ideal = [0, 1, 2, 3, 4].reduce((sum, j, i) => sum + gain(j) / Math.log2(i + 2), 0);
  return dcg / ideal;
}

/** A fetch that counts requests sent to an engine while its health says it is cooling down. */
function watchedFetch(health: EngineHealth, violations: { n: number }): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const engine = FARM_URL.exec(url)?.[1];
    if (engine && coolingUntil(await health.get(engine), Date.now()) !== undefined) violations.n++;
    return await fetch(input, init);
  };
}

async function storm(setup: Setup, queries: number): Promise<Outcome> {
  const farm = engineFarm(realisticRules(SCALE), { now: Date.now, sleep: (ms) => sleep(ms) });
  const web = await startFixtureWeb([farm.route]);
  const health = memoryHealth();
  const violations = { n: 0 };
  const config = configFromEnv({ ...farm.env(web.origin), ...setup.env });
  const latencies: number[] = [];
  const counts: number[] = [];
  const scores: number[] = [];
  let failures = 0;
  const errors = new Map<string, number>();
  const started = Date.now();
  try {
    for (let i = 0; i < queries; i++) {
      const due = started + i * PACE_MS;
      if (due > Date.now()) await sleep(due - Date.now());
      const t0 = performance.now();
      const count = setup.count ?? 5;
      try {
        const answer = await searchEngines(parseQuery(`storm t${i} question ${i}`), {
          count,
          ...(setup.engines ? { engines: setup.engines } : {}),
          ...(setup.fusion ? { fusion: setup.fusion } : {}),
        }, {
          config,
          fetch: watchedFetch(health, violations),
          now: Date.now,
          sleep,
          health,
        });
        counts.push(answer.candidates.length);
        scores.push(ndcg5(answer.candidates.map((c) => c.url)));
      } catch (error) {
        failures++;
        const code = (error as { code?: string }).code ?? "INTERNAL";
        errors.set(code, (errors.get(code) ?? 0) + 1);
        counts.push(0);
        scores.push(0);
      }
      latencies.push(performance.now() - t0);
    }
  } finally {
    await web.close();
  }
  const want = setup.count ?? 5;
  const totals = Object.values(farm.counts);
  return {
    name: setup.name,
    answered5: counts.filter((n) => n >= Math.min(5, want)).length / queries,
    full: counts.filter((n) => n >= want).length / queries,
    meanResults: counts.reduce((a, b) => a + b, 0) / queries,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    blockedRequests: totals.reduce((a, c) => a + c.blocked, 0),
    requests: totals.reduce((a, c) => a + c.requests, 0),
    coolingViolations: violations.n,
    ndcg: scores.reduce((a, b) => a + b, 0) / queries,
    failures,
    errors,
    short: counts.filter((n) => n > 0 && n < Math.min(5, want)).length,
  };
}

const scaled = (minutes: number) => `${Math.round(minutes * MINUTE)}ms`;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const ms = (x: number) => `${Math.round(x)} ms`;

function rows(o: Outcome, base?: Outcome): BenchRow[] {
  const b = (f: (x: Outcome) => string) => base ? { baseline: f(base) } : {};
  return [
    {
      metric: `${o.name}: answered with ≥ 5 results`,
      value: pct(o.answered5),
      ...b((x) => pct(x.answered5)),
      note: base ? (o.answered5 >= 0.98 ? "target ≥ 98 %: met" : "target ≥ 98 %: MISSED") : "",
    },
    {
      metric: `${o.name}: mean results`,
      value: o.meanResults.toFixed(2),
      ...b((x) => x.meanResults.toFixed(2)),
    },
    { metric: `${o.name}: p50 latency`, value: ms(o.p50), ...b((x) => ms(x.p50)) },
    {
      metric: `${o.name}: p95 latency`,
      value: ms(o.p95),
      ...b((x) => ms(x.p95)),
      note: base ? (o.p95 <= 3000 ? "target ≤ 3 s: met" : "target ≤ 3 s: MISSED") : "",
    },
    {
      metric: `${o.name}: requests answered with a block / all requests`,
      value: `${o.blockedRequests} / ${o.requests}`,
      ...b((x) => `${x.blockedRequests} / ${x.requests}`),
    },
    {
      metric: `${o.name}: requests to an engine while it was cooling down`,
      value: String(o.coolingViolations),
      note: o.coolingViolations === 0 ? "target 0: met" : "target 0: MISSED",
    },
    {
      metric: `${o.name}: searches failed / answered short`,
      value: `${o.failures} / ${o.short}`,
      note: [...o.errors].map(([code, n]) => `${code} ×${n}`).join(", "),
    },
    {
      metric: `${o.name}: nDCG@5 of the results`,
      value: o.ndcg.toFixed(3),
      ...b((x) => x.ndcg.toFixed(3)),
    },
  ];
}

/**
 * Fusion on its own, without blocks: nDCG@5 of one engine's first page
 * against the reciprocal rank fusion of three engines' first pages.
 */
function fusionWithoutBlocks(topics: number): BenchRow {
  const engines = ["duckduckgo-lite", "bing", "mojeek"];
  let single = 0;
  let fused = 0;
  for (let t = 0; t < topics; t++) {
    const lists = engines.map((engine) =>
      engineList(engine, t).slice(0, 10).map((r, i) => ({ ...r, engine, rank: i + 1 }))
    );
    single += ndcg5(lists[0]!.map((c) => c.url));
    fused += ndcg5(fuseRanks(lists).map((c) => c.url));
  }
  return {
    metric: "nDCG@5 without blocks: fusion of 3 first pages",
    value: (fused / topics).toFixed(3),
    baseline: (single / topics).toFixed(3),
    note: `one engine's first page; ${topics} topics`,
  };
}

/** Runs the storm for each chain. */
export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  const n = ctx.quick ? QUICK_QUERIES : QUERIES;
  const pacing = { QUARRY_RATE_LIMIT: scaled(1 / 60), QUARRY_TIMEOUT: "8s" };
  const before = { ...pacing, QUARRY_COOLDOWN: scaled(15), QUARRY_COOLDOWN_MAX: scaled(15) };
  const now = { ...pacing, QUARRY_COOLDOWN: scaled(1), QUARRY_COOLDOWN_MAX: scaled(30) };
  // Keyless MCP servers ask DuckDuckGo every time, with no cool-down at all.
  const ddgOnly = await storm({
    name: "DuckDuckGo only",
    env: { ...pacing, QUARRY_COOLDOWN: "0ms", QUARRY_COOLDOWN_MAX: "0ms" },
    engines: ["duckduckgo"],
  }, n);
  const sequential = await storm({
    name: "sequential chain (before)",
    env: { ...before, QUARRY_HEDGE_DELAY: "1h" },
    engines: ["duckduckgo", "duckduckgo-lite", "bing", "mojeek"],
  }, n);
  const hedged = await storm({ name: "hedged chain", env: now }, n);
  const fused = await storm({ name: "fusion of 3", env: now, fusion: 3 }, n);
  const paged = await storm({ name: "hedged chain, -n 30", env: now, count: 30 }, Math.ceil(n / 4));
  const header: BenchRow[] = [{
    metric: "workload",
    value: `${n} distinct queries, one every ${PACE_MS} ms (10 s scaled ×${SCALE})`,
    note: "farm rules and cool-downs scaled; latencies real",
  }];
  return [
    { title: "search-storm: baselines", rows: [...header, ...rows(ddgOnly), ...rows(sequential)] },
    {
      title: "search-storm: hedged chain (baseline: sequential chain)",
      rows: rows(hedged, sequential),
    },
    {
      title: "search-storm: rank fusion (baseline: hedged chain)",
      rows: [...rows(fused, hedged), fusionWithoutBlocks(n)],
    },
    {
      title: "search-storm: paging (-n 30)",
      rows: [{
        metric: "searches with 30 results",
        value: pct(paged.full),
        note: `mean ${paged.meanResults.toFixed(1)} results, p95 ${ms(paged.p95)}`,
      }],
    },
  ];
}
