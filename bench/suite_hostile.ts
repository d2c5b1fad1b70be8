/**
 * Hostile pages through the real `quarry serve` (issue 11), twenty at once
 * per kind: nested DOM at depths 500 to 100,000, megabytes on one line, gzip
 * bombs, endless and 1 byte/s bodies. For each kind: the statuses, the
 * slowest request's wall time against the timeout (+2 s is the bound), the
 * server's peak RSS; then its RSS once the load has settled, and `/health`
 * p99 during the whole run against idle.
 * @module
 */
import { startFixtureWeb } from "../tests/support/fixture_web.ts";
import { startQuarryServer } from "../tests/support/quarry_server.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

/** Requests of one kind sent at once. */
const AT_ONCE = 20;
const TIMEOUT_S = 3;
/** A read must end within its timeout plus this. */
const MARGIN_MS = 2_000;
const MB = 1024 * 1024;
const SAMPLE_MS = 100;

const KINDS: [string, string][] = [
  ["nested depth 500", "/hostile/nested?depth=500"],
  ["nested depth 1,000", "/hostile/nested?depth=1000"],
  ["nested depth 10,000", "/hostile/nested?depth=10000"],
  ["nested depth 100,000", "/hostile/nested?depth=100000"],
  ["5 MB on one line", "/hostile/line?mb=5"],
  ["9 MB on one line", "/hostile/line?mb=9"],
  ["gzip bomb (12 MB)", "/fault/gzip-bomb"],
  ["endless body", "/hostile/endless"],
  ["1 byte/s body", "/hostile/trickle"],
];

/**
 * RSS of a process and its descendants, in bytes, from `ps` (reading
 * `/proc/<pid>` itself needs `--allow-all` in Deno 2).
 */
async function treeRss(pid: number): Promise<number> {
  const out = await new Deno.Command("ps", { args: ["-e", "-o", "pid=,ppid=,rss="] }).output()
    .catch(() => undefined);
  if (!out?.success) return 0;
  const rows = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) =>
    l.trim().split(/\s+/).map(Number)
  );
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, parent] of rows) {
      if (!tree.has(p!) && tree.has(parent!)) grew = tree.add(p!) !== undefined;
    }
  }
  return rows.filter(([p]) => tree.has(p!)).reduce((sum, [, , rss]) => sum + rss! * 1024, 0);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** Probes /health one request at a time until `stop`; latencies sorted. */
async function probe(origin: string, stop: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!stop()) {
    const started = performance.now();
    await (await fetch(`${origin}/health`)).arrayBuffer();
    out.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  return out.sort((a, b) => a - b);
}

interface KindResult {
  statuses: Map<string, number>;
  slowestMs: number;
  peakRss: number;
}

async function runKind(origin: string, url: string, pid: number): Promise<KindResult> {
  let peakRss = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peakRss = Math.max(peakRss, await treeRss(pid));
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
  })();
  const statuses = new Map<string, number>();
  let slowestMs = 0;
  await Promise.all(Array.from({ length: AT_ONCE }, async (_, i) => {
    const started = performance.now();
    const target = encodeURIComponent(`${url}${url.includes("?") ? "&" : "?"}i=${i}`);
    const res = await fetch(`${origin}/fetch?url=${target}&timeout=${TIMEOUT_S}s&max=100`);
    const body = await res.json().catch(() => ({}));
    slowestMs = Math.max(slowestMs, performance.now() - started);
    const status = body?.results?.[0]?.status ?? `HTTP ${res.status}`;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }));
  done = true;
  await sampler;
  return { statuses, slowestMs, peakRss };
}

function mb(bytes: number): string {
  return `${Math.round(bytes / MB)} MB`;
}

/** Runs the hostile pages through a real server. */
export async function run(ctx: BenchContext): Promise<BenchSection> {
  if (Deno.build.os === "windows") {
    return { title: "Hostile pages through quarry serve", rows: [], skipped: "needs ps" };
  }
  const web = await startFixtureWeb();
  const server = await startQuarryServer([], { env: { QUARRY_TIMEOUT: `${TIMEOUT_S}s` } });
  const rows: BenchRow[] = [];
  try {
    const idle = await probe(
      server.origin,
      ((end) => () => performance.now() > end)(
        performance.now() + 2_000,
      ),
    );
    const baseRss = await treeRss(server.pid);
    let loadDone = false;
    const during = probe(server.origin, () => loadDone);
    let peakAll = 0;
    const kinds = ctx.quick ? KINDS.filter((_, i) => i % 3 === 0) : KINDS;
    for (const [name, path] of kinds) {
      const r = await runKind(server.origin, `${web.origin}${path}`, server.pid);
      peakAll = Math.max(peakAll, r.peakRss);
      const bound = TIMEOUT_S * 1000 + MARGIN_MS;
      rows.push({
        metric: `${name} ×${AT_ONCE}`,
        value: [...r.statuses].map(([s, n]) => `${s} ${n}`).join(", "),
        baseline: `${(r.slowestMs / 1000).toFixed(1)} s slowest (bound ${bound / 1000} s)`,
        note: `${r.slowestMs <= bound ? "within" : "OVER"} bound; peak RSS ${mb(r.peakRss)}`,
      });
    }
    loadDone = true;
    const loaded = await during;
    const settleMs = ctx.quick ? 5_000 : 30_000;
    await new Promise((r) => setTimeout(r, settleMs));
    const settled = await treeRss(server.pid);
    const fmt = (xs: number[]) => `${percentile(xs, 0.99).toFixed(1)} ms`;
    rows.push(
      {
        metric: "server RSS: peak during the run",
        value: mb(peakAll),
        baseline: `${mb(baseRss)} idle`,
        note: `target ≤ 600 MB: ${peakAll <= 600 * MB ? "met" : "missed"}`,
      },
      {
        metric: `server RSS: ${settleMs / 1000} s after the load`,
        value: mb(settled),
        baseline: `${mb(baseRss)} idle`,
        note: `target < 300 MB: ${settled < 300 * MB ? "met" : "missed"}`,
      },
      {
        metric: "/health p99 during the run",
        value: fmt(loaded),
        baseline: `${fmt(idle)} idle`,
        note: `×${
          (percentile(loaded, 0.99) / Math.max(0.01, percentile(idle, 0.99))).toFixed(1)
        }; ${loaded.length} probes`,
      },
    );
    return { title: "Hostile pages through quarry serve (20 at once per kind)", rows };
  } finally {
    const stopping = performance.now();
    const code = await server.close();
    rows.push({
      metric: "SIGTERM to exit",
      value: `${Math.round(performance.now() - stopping)} ms`,
      note: `exit ${code}; bound 2,000 ms`,
    });
    await web.close();
  }
}
