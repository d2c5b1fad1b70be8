import assert from "node:assert/strict";
import { configFromEnv, MAX_TIMER_MS, parseDuration } from "../src/config.ts";
import { QuarryError } from "../src/errors.ts";
import { OPERATIONS } from "../src/ops/registry.ts";

function badInput(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) =>
    e instanceof QuarryError && e.code === "BAD_INPUT" &&
    pattern.test(e.message));
}

Deno.test("parseDuration() reads units and bare seconds", () => {
  assert.equal(parseDuration("500ms"), 500);
  assert.equal(parseDuration("8"), 8000);
  assert.equal(parseDuration("1.5h"), 5_400_000);
});

Deno.test("parseDuration() refuses durations a timer cannot wait, and zero", () => {
  badInput(() => parseDuration("600h", "--timeout"), /--timeout "600h": the longest allowed is 24/);
  badInput(() => parseDuration(`1${"0".repeat(400)}h`), /longest allowed/);
  badInput(() => parseDuration("0s", "--timeout"), /more than zero/);
  badInput(() => parseDuration("soon"), /like 500ms/);
  assert.equal(parseDuration(`${MAX_TIMER_MS}ms`), MAX_TIMER_MS);
});

Deno.test("configFromEnv() refuses an out-of-range QUARRY_TIMEOUT but allows a zero rate limit", () => {
  badInput(() => configFromEnv({ QUARRY_TIMEOUT: "600h" }), /QUARRY_TIMEOUT/);
  badInput(() => configFromEnv({ QUARRY_TIMEOUT: "0" }), /QUARRY_TIMEOUT/);
  assert.equal(configFromEnv({ QUARRY_RATE_LIMIT: "0" }).rateLimitMs, 0);
  assert.equal(configFromEnv({ QUARRY_CACHE_TTL: "30d" }).cacheTtlMs, 30 * 86_400_000);
});

Deno.test("every operation's duration options are read to milliseconds and bounded", () => {
  let checked = 0;
  for (const op of OPERATIONS) {
    const shape = op.input.shape as Record<string, unknown>;
    if (!("timeout" in shape)) continue;
    const base = op.input.safeParse({});
    const fields = base.success ? {} : Object.fromEntries(
      base.error.issues.map((i) => [String(i.path[0]), "x"]),
    );
    const ok = op.input.safeParse({ ...fields, timeout: "2s" });
    if (ok.success) assert.equal((ok.data as { timeout: number }).timeout, 2000, op.name);
    assert.equal(op.input.safeParse({ ...fields, timeout: "600h" }).success, false, op.name);
    assert.equal(op.input.safeParse({ ...fields, timeout: "0ms" }).success, false, op.name);
    checked++;
  }
  assert.ok(checked >= 3);
});
