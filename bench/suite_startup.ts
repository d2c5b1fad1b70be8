/**
 * Start-up cost of the real program, measured from outside: whole-process
 * wall time and peak RSS of the installed `quarry` command (`deno task
 * install` into a temporary root: one `deno run`, as an agent's shell calls
 * it) and of `deno task quarry …` (the task runner is a second Deno process),
 * each against an empty `deno run` script in the same run.
 *
 * - `quarry --version`, `quarry --help`: the cost of starting at all.
 * - `quarry fetch <one loopback page>`, `quarry archive search <q>`.
 * - `quarry mcp`: spawn → the answer to `tools/list`.
 *
 * Peak RSS and CPU time (user + system) come from GNU time (`/usr/bin/time
 * -f "%M %U %S"`): RSS of the largest process of the tree it waited for,
 * CPU summed over the tree. On a shared, loaded machine wall time is noisy;
 * CPU time is the steadier measure of the work a start-up does. Without GNU
 * time those columns say so.
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startFixtureWeb } from "../tests/support/fixture_web.ts";
import { quarryCommand, tempHome } from "../tests/support/run_quarry.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

const GNU_TIME = "/usr/bin/time";
/** Runs of each command; the median is reported. */
const RUNS = 7;
const QUICK_RUNS = 3;

/** Targets from issue 14, as ratios against the empty script. */
const TARGETS: Record<string, { wall?: number; rssMiB?: number }> = {
  "--version": { wall: 2, rssMiB: 60 },
  "mcp": { wall: 3 },
  "fetch": { wall: 4 },
};

/** One whole-process run. */
interface Sample {
  wallMs: number;
  /** Peak RSS in KiB, when GNU time is there. */
  rssKiB?: number;
  /** User + system CPU in ms, when GNU time is there. */
  cpuMs?: number;
}

async function hasGnuTime(): Promise<boolean> {
  try {
    return (await Deno.stat(GNU_TIME)).isFile;
  } catch {
    return false;
  }
}

/** Wraps a command in GNU time writing `%M` to `out`, when GNU time is there. */
function timed(command: string, args: string[], out: string | undefined) {
  return out
    ? { command: GNU_TIME, args: ["-f", "%M %U %S", "-o", out, command, ...args] }
    : { command, args };
}

async function readUsage(out: string | undefined): Promise<Omit<Sample, "wallMs">> {
  if (!out) return {};
  for (let i = 0; i < 50; i++) {
    try {
      const last = (await Deno.readTextFile(out)).trim().split("\n").at(-1) ?? "";
      const [kib, user, sys] = last.split(" ").map(Number);
      if (kib && kib > 0 && user !== undefined && sys !== undefined) {
        return { rssKiB: kib, cpuMs: (user + sys) * 1000 };
      }
    } catch {
      // GNU time writes the file when the child has exited.
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {};
}

interface Spec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

async function runOnce(spec: Spec, rss: boolean): Promise<Sample> {
  const out = rss ? await Deno.makeTempFile({ prefix: "quarry-time-" }) : undefined;
  const { command, args } = timed(spec.command, spec.args, out);
  const started = performance.now();
  const result = await new Deno.Command(command, {
    args,
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - started;
  if (!result.success) {
    throw new Error(`${spec.args.join(" ")} failed: ${new TextDecoder().decode(result.stderr)}`);
  }
  const usage = await readUsage(out);
  if (out) await Deno.remove(out).catch(() => {});
  return { wallMs, ...usage };
}

/** `quarry mcp`: spawn → `tools/list` answered, through the real MCP client. */
async function mcpOnce(spec: Spec, rss: boolean): Promise<Sample> {
  const out = rss ? await Deno.makeTempFile({ prefix: "quarry-time-" }) : undefined;
  const { command, args } = timed(spec.command, spec.args, out);
  const client = new Client({ name: "bench", version: "0" });
  const started = performance.now();
  await client.connect(new StdioClientTransport({ command, args, cwd: spec.cwd, env: spec.env }));
  const { tools } = await client.listTools();
  const wallMs = performance.now() - started;
  await client.close();
  if (tools.length === 0) throw new Error("tools/list answered no tools");
  const usage = await readUsage(out);
  if (out) await Deno.remove(out).catch(() => {});
  return { wallMs, ...usage };
}

/** `deno task install` into `scratch`; the path of the installed `quarry`. */
async function install(base: Spec, home: string, scratch: string): Promise<string> {
  const result = await new Deno.Command(base.command, {
    args: ["task", "--quiet", "install"],
    cwd: base.cwd,
    env: { ...base.env, QUARRY_HOME: home, DENO_INSTALL_ROOT: scratch },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!result.success) {
    throw new Error(`deno task install failed: ${new TextDecoder().decode(result.stderr)}`);
  }
  return `${scratch}/bin/quarry`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Case {
  name: string;
  spec: Spec;
  mcp?: boolean;
}

function row(name: string, samples: Sample[], empty: Sample[]): BenchRow {
  const wall = median(samples.map((s) => s.wallMs));
  const base = median(empty.map((s) => s.wallMs));
  const rssList = samples.flatMap((s) => s.rssKiB === undefined ? [] : [s.rssKiB]);
  const baseRss = empty.flatMap((s) => s.rssKiB === undefined ? [] : [s.rssKiB]);
  const mib = (k: number) => `${(k / 1024).toFixed(0)} MiB`;
  const cpuList = samples.flatMap((s) => s.cpuMs === undefined ? [] : [s.cpuMs]);
  const baseCpu = empty.flatMap((s) => s.cpuMs === undefined ? [] : [s.cpuMs]);
  const cpu = (xs: number[]) => xs.length ? `, ${median(xs).toFixed(0)} ms CPU` : "";
  const rss = rssList.length ? mib(median(rssList)) : "RSS n/a";
  const ratio = wall / base;
  const target = TARGETS[name.replace(/ \(deno task\)$/, "")];
  const checks: string[] = [`×${ratio.toFixed(2)} wall`];
  if (cpuList.length && baseCpu.length) {
    checks.push(`×${(median(cpuList) / median(baseCpu)).toFixed(2)} CPU`);
  }
  if (target?.wall) {
    checks.push(`target ≤ ${target.wall}× ${ratio <= target.wall ? "met" : "MISSED"}`);
  }
  if (target?.rssMiB && rssList.length) {
    const m = median(rssList) / 1024;
    checks.push(`≤ ${target.rssMiB} MiB ${m <= target.rssMiB ? "met" : "MISSED"}`);
  }
  return {
    metric: `quarry ${name}`,
    value: `${wall.toFixed(0)} ms, ${rss}${cpu(cpuList)}`,
    baseline: `${base.toFixed(0)} ms, ${baseRss.length ? mib(median(baseRss)) : "RSS n/a"}${
      cpu(baseCpu)
    }`,
    note: checks.join("; "),
  };
}

/** Runs the start-up benchmark. */
export async function run(ctx: BenchContext): Promise<BenchSection> {
  const runs = ctx.quick ? QUICK_RUNS : RUNS;
  const rss = await hasGnuTime();
  const web = await startFixtureWeb();
  const scratch = await Deno.makeTempDir({ prefix: "quarry-startup-" });
  try {
    const emptyScript = `${scratch}/empty.ts`;
    await Deno.writeTextFile(emptyScript, "");
    const home = await tempHome();
    const page = `${web.origin}/pages/articles/http3.html`;
    const quarry = (args: string[]) => quarryCommand(args, home);
    const base = quarry([]);
    const empty: Spec = { ...base, args: ["run", "--quiet", emptyScript] };
    // Something in the archive to search.
    await runOnce(quarry(["fetch", page]), false);
    const installed = await install(base, home, scratch);
    // The installed shim runs `deno` from the PATH.
    const denoDir = Deno.execPath().replace(/\/[^/]*$/, "");
    const env = { ...base.env, PATH: `${denoDir}:${base.env.PATH}` };
    const asInstalled = (args: string[]): Spec => ({ ...base, command: installed, args, env });
    const commands: [string, string[]][] = [
      ["--version", ["--version"]],
      ["--help", ["--help"]],
      ["fetch", ["fetch", page]],
      ["archive search", ["archive", "search", "head-of-line blocking"]],
      ["mcp", ["mcp"]],
    ];
    const cases: Case[] = [
      ...commands.map(([name, args]) => ({
        name,
        spec: asInstalled(args),
        ...(name === "mcp" ? { mcp: true } : {}),
      })),
      ...commands.map(([name, args]) => ({
        name: `${name} (deno task)`,
        spec: quarry(args),
        ...(name === "mcp" ? { mcp: true } : {}),
      })),
    ];
    const emptySamples: Sample[] = [];
    const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
    // Warm the caches once, then interleave so load on the machine hits every case alike.
    await runOnce(empty, false);
    for (const c of cases) await (c.mcp ? mcpOnce(c.spec, false) : runOnce(c.spec, false));
    for (let i = 0; i < runs; i++) {
      emptySamples.push(await runOnce(empty, rss));
      for (const c of cases) {
        samples.get(c.name)!.push(await (c.mcp ? mcpOnce(c.spec, rss) : runOnce(c.spec, rss)));
      }
    }
    return {
      title: `Start-up: whole process, median of ${runs} (baseline: empty \`deno run\` script)`,
      rows: cases.map((c) => row(c.name, samples.get(c.name)!, emptySamples)),
    };
  } finally {
    await web.close();
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}
