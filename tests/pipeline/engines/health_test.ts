/** The pacing rules: back-off, Retry-After, recovery, and the healthiest-first order. */
import assert from "node:assert/strict";
import {
  afterBlock,
  afterFailure,
  afterSuccess,
  byHealth,
  cooldownFor,
  coolingUntil,
  type HealthRecord,
  spacing,
  successRate,
} from "../../../src/pipeline/engines/health.ts";

const PACING = { cooldownMs: 60_000, maxCooldownMs: 30 * 60_000 };
const T0 = Date.parse("2026-05-01T12:00:00Z");
const BLOCK = { code: "CAPTCHA" as const, message: "anomaly page" };

Deno.test("cooldownFor() cools a first block for a minute and doubles up to the cap", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 40].map((n) => cooldownFor(n, PACING) / 60_000),
    [1, 2, 4, 8, 16, 30, 30, 30],
  );
});

Deno.test("cooldownFor() waits what Retry-After asks on a first block, and never less later", () => {
  assert.equal(cooldownFor(1, PACING, 120), 120_000);
  assert.equal(cooldownFor(1, PACING, 10), 10_000);
  assert.equal(cooldownFor(3, PACING, 10), 240_000);
  assert.equal(cooldownFor(3, PACING, 600), 600_000);
});

Deno.test("afterBlock() grows the streak; afterSuccess() ends it and the cool-down", () => {
  let r: HealthRecord | undefined;
  r = afterBlock(r, BLOCK, T0, PACING);
  assert.equal(coolingUntil(r, T0), T0 + 60_000);
  r = afterBlock(r, BLOCK, T0 + 60_000, PACING);
  assert.equal(coolingUntil(r, T0 + 60_000), T0 + 180_000);
  r = afterSuccess(r, 200);
  assert.equal(r.streak, 0);
  assert.equal(coolingUntil(r, T0 + 60_000), undefined);
  // A block after the recovery starts the back-off again from a minute.
  r = afterBlock(r, BLOCK, T0 + 300_000, PACING);
  assert.equal(r.until, T0 + 360_000);
  assert.equal(r.blocks, 3);
});

Deno.test("successRate() counts recent answers; an engine never asked counts as healthy", () => {
  assert.equal(successRate(undefined), 1);
  const r = afterFailure(afterSuccess(afterSuccess(undefined, 100), 300));
  assert.equal(successRate(r), 2 / 3);
  assert.equal(r.latencyMs, 160);
});

Deno.test("byHealth() puts healthy engines first, then older blocks, then lower latency by the second", () => {
  const records = new Map<string, HealthRecord | undefined>([
    ["duckduckgo", afterBlock(afterSuccess(undefined, 100), BLOCK, T0, PACING)],
    ["bing", afterSuccess(undefined, 2900)],
    ["mojeek", afterSuccess(undefined, 300)],
    ["startpage", undefined],
  ]);
  assert.deepEqual(byHealth(["duckduckgo", "bing", "mojeek", "startpage"], records), [
    "mojeek",
    "startpage",
    "bing",
    "duckduckgo",
  ]);
});

Deno.test("spacing() adds up to half the delay at random, and nothing without a delay", () => {
  assert.equal(spacing(1000, () => 0), 1000);
  assert.equal(spacing(1000, () => 0.999), 1500);
  assert.equal(spacing(0, () => 0.5), 0);
});
