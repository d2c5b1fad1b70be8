/**
 * Small operations and a context for testing the faces without the network:
 * they echo their input, fail with a chosen code, or wait for an abort.
 * @module
 */
import { z } from "zod";
import { configFromEnv } from "../../src/config.ts";
import { ERROR_CODES, QuarryError } from "../../src/errors.ts";
import { sleep } from "../../src/front/context.ts";
import { defineOp, type OpContext, type Operation } from "../../src/ops/types.ts";
import { failure } from "../../src/envelope.ts";
import { storesFor } from "../../src/store/stores.ts";

/** Echoes its parsed input as the single result. */
export const echoOp = defineOp({
  name: "echo",
  command: ["echo"],
  summary: "Echo the input",
  description: "Returns its input; for tests.",
  input: z.object({
    query: z.string().min(1).describe("Text"),
    count: z.number().int().min(1).max(20).default(5).describe("How many"),
    force: z.boolean().default(false).describe("Bypass"),
    engines: z.array(z.enum(["a", "b", "c"])).optional().describe("Engines"),
    urls: z.array(z.string()).optional().describe("URLs"),
    maxTokens: z.number().int().optional().describe("Budget"),
  }),
  positionals: [{ field: "query" }],
  http: { method: "GET", path: "/echo" },
  mcp: { tool: "echo_input", title: "Echo", annotations: { readOnlyHint: true } },
  run(_ctx, input) {
    return Promise.resolve({ success: true, command: "echo", results: [input], metadata: {} });
  },
  render(envelope) {
    return `echo: ${JSON.stringify(envelope.success ? envelope.results : [])}\n`;
  },
});

/** Fails with the code it is given: thrown with `thrown`, else as a returned envelope. */
export const failOp = defineOp({
  name: "fail",
  command: ["fail"],
  summary: "Fail",
  description: "Fails with a code; for tests.",
  input: z.object({
    code: z.enum(ERROR_CODES),
    thrown: z.boolean().default(false),
    retryAfter: z.number().optional(),
  }),
  http: { method: "GET", path: "/fail" },
  mcp: { tool: "fail_now", title: "Fail", annotations: {} },
  run(_ctx, input) {
    if (input.code === "INTERNAL") throw new Error("secret /etc/passwd at line 3");
    const error = new QuarryError(input.code, `failed with ${input.code}`, {
      suggestions: ["try again"],
      ...(input.retryAfter === undefined ? {} : { retryAfter: input.retryAfter }),
    });
    if (input.thrown) throw error;
    return Promise.resolve(failure("fail", error));
  },
});

/** Deletes nothing, on DELETE; for method routing. */
export const wipeOp = defineOp({
  name: "wipe",
  command: ["wipe"],
  summary: "Wipe",
  description: "For tests.",
  input: z.object({ query: z.string().optional() }),
  http: { method: "DELETE", path: "/echo" },
  run(_ctx, input) {
    return Promise.resolve({ success: true, command: "wipe", results: [input], metadata: {} });
  },
});

/** Waits until its signal aborts (or `ms`), then reports whether it was aborted. */
export function waitOp(onAbort: () => void): Operation {
  return defineOp({
    name: "wait",
    command: ["wait"],
    summary: "Wait",
    description: "For tests.",
    input: z.object({ ms: z.number().default(60_000) }),
    http: { method: "GET", path: "/wait" },
    mcp: { tool: "wait_for", title: "Wait", annotations: {} },
    async run(ctx, input) {
      try {
        await ctx.sleep(input.ms, ctx.signal);
      } catch (error) {
        onAbort();
        throw error;
      }
      return { success: true, command: "wait", results: [], metadata: {} };
    },
  }) as unknown as Operation;
}

/** The fake ops as a registry. */
export const FAKE_OPS = [echoOp, failOp, wipeOp] as unknown as readonly Operation[];

/** A context over a fresh temp data directory (real KV); no network. */
export async function testContext(env: Record<string, string> = {}): Promise<OpContext> {
  const home = await Deno.makeTempDir({ prefix: "quarry-front-" });
  const config = configFromEnv({ QUARRY_HOME: home, ...env });
  return {
    config,
    fetch: () => Promise.reject(new Error("no network in this test")),
    resolveDns: () => Promise.resolve(["127.0.0.1"]),
    now: () => 0,
    sleep,
    random: () => 0.5,
    stores: storesFor(config),
    progress: () => {},
  };
}
