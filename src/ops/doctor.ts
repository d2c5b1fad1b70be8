/**
 * `quarry doctor`: one line per engine and service (reachable, blocked, on
 * cool-down, key present or missing, SearXNG JSON enabled or not) and the
 * data directory. Fails when no engine of the chain can search.
 * @module
 */
import { z } from "zod";
import type { Config } from "../config.ts";
import { QuarryError, toQuarryError } from "../errors.ts";
import { chainFailure } from "../pipeline/engines/failure.ts";
import {
  coolingUntil,
  type EngineHealth,
  type HealthRecord,
  spacing,
  successRate,
} from "../pipeline/engines/health.ts";
import { ENGINES, resolveChain } from "../pipeline/engines/mod.ts";
import type { Attempt, Engine, EngineName } from "../pipeline/engines/types.ts";
import { parseQuery } from "../pipeline/query.ts";
import { type Envelope, failure } from "../envelope.ts";
import { kvHealth } from "../store/kv/health.ts";
import { defineOp, type OpContext } from "./types.ts";

/** Status of one check. */
export type CheckStatus =
  | "ok"
  | "blocked"
  | "cooldown"
  | "error"
  | "missing_key"
  | "not_configured"
  | "not_probed";

/** One line of the report. */
export interface Check {
  name: string;
  kind: "engine" | "service" | "store";
  status: CheckStatus;
  detail: string;
  /** End of a cool-down (ISO time): when the engine will be tried again. */
  until?: string;
  /** What the engine's health record says, for engines asked before. */
  health?: string;
}

/** A harmless query whose only purpose is to see whether an engine answers. */
const PROBE_QUERY = "wikipedia";
const BLOCK_CODES = new Set(["CAPTCHA", "RATE_LIMITED"]);
/** Details of failed probes start with the error code. */
const LEADING_CODE = /^([A-Z_]+): /;

const input = z.object({
  offline: z.boolean().default(false).describe(
    "Check configuration, keys, cool-downs and the data directory only; send no search",
  ),
});

/** One line on an engine's record: recent answers, latency, blocks. */
export function describeHealth(r: HealthRecord): string {
  const rate = Math.round(successRate(r) * 100);
  const parts = [
    `${rate}% of the last ${r.recent.length} requests answered`,
    ...(r.successes > 0 ? [`${r.latencyMs} ms on average`] : []),
    `${r.blocks} block${r.blocks === 1 ? "" : "s"}${
      r.lastBlock ? ` (last ${new Date(r.lastBlock).toISOString()})` : ""
    }`,
  ];
  return parts.join(", ");
}

async function checkEngine(
  ctx: OpContext,
  health: EngineHealth,
  engine: Engine,
  offline: boolean,
): Promise<Check> {
  const availability = engine.available(ctx.config);
  if (availability !== true) {
    const status = engine.needsKey ? "missing_key" : "not_configured";
    return { name: engine.name, kind: "engine", status, detail: availability };
  }
  const record = await health.get(engine.name).catch(() => undefined);
  const base = {
    name: engine.name,
    kind: "engine" as const,
    ...(record ? { health: describeHealth(record) } : {}),
  };
  const cooling = coolingUntil(record, ctx.now());
  if (cooling !== undefined) {
    const until = new Date(cooling).toISOString();
    return { ...base, status: "cooldown", detail: `${record?.code}: ${record?.message}`, until };
  }
  const keyNote = engine.needsKey ? `${engine.needsKey} present; ` : "";
  if (offline) return { ...base, status: "not_probed", detail: `${keyNote}configured` };
  const started = ctx.now();
  try {
    const slot = await health.reserve(
      engine.name,
      spacing(ctx.config.rateLimitMs, Math.random),
      ctx.now(),
    );
    if (slot > ctx.now()) await ctx.sleep(slot - ctx.now());
    const found = await engine.search(parseQuery(PROBE_QUERY), { count: 1 }, ctx);
    const json = engine.name === "searxng" ? "JSON output enabled; " : "";
    const took = ctx.now() - started;
    return {
      ...base,
      status: "ok",
      detail: `${keyNote}${json}reachable, ${found.length} results in ${took} ms`,
    };
  } catch (error) {
    const qe = toQuarryError(error);
    const status = BLOCK_CODES.has(qe.code) ? "blocked" : "error";
    // Doctor only looks: a block it sees does not change the engine's health.
    return { ...base, status, detail: `${qe.code}: ${qe.message}` };
  }
}

function keyCheck(name: string, envName: string, key: string | undefined): Check {
  return key
    ? { name, kind: "service", status: "ok", detail: `${envName} present` }
    : { name, kind: "service", status: "missing_key", detail: `${envName} is not set` };
}

/** The rendering browser: version when reachable (asked even offline: it is local). */
export async function checkBrowser(ctx: OpContext): Promise<Check> {
  const base = { name: "browser", kind: "service" as const };
  if (!ctx.browser) {
    return {
      ...base,
      status: "not_configured",
      detail: "QUARRY_BROWSER_URL is not set: JavaScript pages are not rendered " +
        "(start one: chromium --headless --remote-debugging-port=9222)",
    };
  }
  const info = await ctx.browser.info();
  return info.reachable
    ? { ...base, status: "ok", detail: `${info.version ?? "Chromium"} at ${info.url}, reachable` }
    : { ...base, status: "error", detail: `${info.url} is not reachable: ${info.error ?? "?"}` };
}

async function checkDataDir(config: Config): Promise<Check> {
  const base = { name: "data directory", kind: "store" as const };
  try {
    await Deno.mkdir(config.home, { recursive: true });
    const probe = await Deno.makeTempFile({ dir: config.home, prefix: ".doctor-" });
    await Deno.remove(probe);
    return { ...base, status: "ok", detail: `${config.home} (writable)` };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ...base, status: "error", detail: `${config.home} is not writable: ${why}` };
  }
}

async function checkKv(ctx: OpContext): Promise<{ kv: Deno.Kv | undefined; check: Check }> {
  const name = "kv store";
  const where = ctx.config.kvUrl
    ? `remote KV at ${ctx.config.kvUrl}`
    : `${ctx.config.home}/kv.sqlite3`;
  try {
    const kv = await ctx.stores.kv();
    return { kv, check: { name, kind: "store", status: "ok", detail: where } };
  } catch (error) {
    const check: Check = {
      name,
      kind: "store",
      status: "error",
      detail: `${where}: ${toQuarryError(error).message}`,
    };
    return { kv: undefined, check };
  }
}

/** The chain attempt a check stands for, so the failure reads like a search failure. */
function asAttempt(check: Check): Attempt {
  const outcome = ({
    ok: "ok",
    not_probed: "ok",
    blocked: "blocked",
    cooldown: "cooldown",
    error: "error",
    missing_key: "skipped",
    not_configured: "skipped",
  } as const)[check.status];
  const code = LEADING_CODE.exec(check.detail)?.[1] as Attempt["code"];
  return {
    engine: check.name,
    outcome,
    message: check.detail,
    ...(code ? { code } : {}),
    ...(check.until ? { until: check.until } : {}),
  };
}

/** The `doctor` operation. */
export const doctorOp = defineOp({
  name: "doctor",
  command: ["doctor"],
  summary: "Check engines, keys, cool-downs and the data directory",
  description:
    "Diagnose Quarry: for every search engine whether it is reachable, blocked, on cool-down " +
    "(and until when) or missing its key or URL; whether SearXNG has JSON output enabled; " +
    "which API keys are present; the rendering browser (version, reachable or not); and whether " +
    "the data directory is writable. Fails when no engine of the chain can search.",
  input,
  async run(ctx, args): Promise<Envelope<Check>> {
    const started = ctx.now();
    const { kv, check: kvCheck } = await checkKv(ctx);
    const chain = new Set<EngineName>(resolveChain(ctx.config));
    const order = [
      ...chain,
      ...(Object.keys(ENGINES) as EngineName[]).filter((n) => !chain.has(n)),
    ];
    const engines = kv
      ? await Promise.all(
        order.map((n) => checkEngine(ctx, kvHealth(kv), ENGINES[n], args.offline)),
      )
      : [];
    const results: Check[] = [
      ...engines,
      keyCheck("context7", "CONTEXT7_API_KEY", ctx.config.keys.context7),
      keyCheck("perplexity", "PERPLEXITY_API_KEY", ctx.config.keys.perplexity),
      await checkBrowser(ctx),
      await checkDataDir(ctx.config),
      kvCheck,
    ];
    const usable = engines.filter((c) =>
      chain.has(c.name as EngineName) && (c.status === "ok" || c.status === "not_probed")
    );
    const metadata = {
      chain: [...chain],
      usable: usable.map((c) => c.name),
      elapsed_ms: ctx.now() - started,
    };
    if (usable.length > 0) return { success: true, command: "doctor", results, metadata };
    const chainChecks = engines.filter((c) => chain.has(c.name as EngineName));
    const error = kv
      ? chainFailure(chainChecks.map(asAttempt), ctx.config, ctx.now())
      : new QuarryError("PERMISSION_DENIED", `Cannot open the store: ${kvCheck.detail}`, {
        suggestions: ["Point QUARRY_HOME at a writable directory"],
      });
    const elsewhere = engines.filter((c) => !chain.has(c.name as EngineName) && c.status === "ok");
    for (const c of elsewhere) {
      error.suggestions.unshift(`${c.name} answers: try --engine ${c.name}`);
    }
    return failure("doctor", error, { results, metadata });
  },
  render(envelope) {
    const checks = (envelope.results ?? []) as Check[];
    const lines = checks.map((c) => {
      const until = c.until ? ` (tried again after ${c.until})` : "";
      const health = c.health ? `\n${"".padEnd(32)}health: ${c.health}` : "";
      return `${c.status.padEnd(15)}${c.name.padEnd(17)}${c.detail}${until}${health}`;
    });
    return lines.join("\n") + "\n";
  },
});
