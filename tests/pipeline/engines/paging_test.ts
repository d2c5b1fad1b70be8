/**
 * Paging and pacing against the engine farm: an engine asked for more than
 * one page of results is asked for the next pages, and an engine that
 * starts blocking is cooled down and not asked again while it cools.
 */
import assert from "node:assert/strict";
import { configFromEnv } from "../../../src/config.ts";
import { coolingUntil, memoryHealth } from "../../../src/pipeline/engines/health.ts";
import { type ChainDeps, searchEngines } from "../../../src/pipeline/engines/mod.ts";
import { parseQuery } from "../../../src/pipeline/query.ts";
import { startFixtureWeb } from "../../support/fixture_web.ts";
import { engineFarm, type FarmRule } from "../../support/web/engine_farm.ts";

const OPEN: FarmRule = { block: { kind: "none" }, latencyMs: [0, 0] };

function deps(env: Record<string, string>, now: () => number): ChainDeps {
  return {
    config: configFromEnv({ QUARRY_RATE_LIMIT: "0", ...env }),
    fetch: globalThis.fetch,
    now,
    sleep: () => Promise.resolve(),
    health: memoryHealth(),
    timer: (_ms, signal) =>
      new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
  };
}

Deno.test("searchEngines() asks for the next pages until -n is met", async () => {
  const farm = engineFarm({ mojeek: OPEN, "brave-html": OPEN }, {
    now: Date.now,
    sleep: () => Promise.resolve(),
  });
  const web = await startFixtureWeb([farm.route]);
  try {
    for (const engine of ["mojeek", "brave-html"]) {
      const answer = await searchEngines(parseQuery("paging t7"), {
        count: 45,
        engines: [engine],
      }, deps(farm.env(web.origin), Date.now));
      assert.equal(answer.candidates.length, 45, engine);
      assert.equal(new Set(answer.candidates.map((c) => c.url)).size, 45);
      assert.deepEqual(
        answer.candidates.map((c) => c.rank),
        [...Array(45).keys()].map((i) => i + 1),
      );
      // Mojeek shows 10 a page, Brave 20.
      assert.equal(answer.attempts[0]!.pages, engine === "mojeek" ? 5 : 3);
    }
    assert.equal(farm.counts.mojeek!.requests, 5);
  } finally {
    await web.close();
  }
});

Deno.test("searchEngines() does not ask an engine again while it cools down after a block", async () => {
  let now = Date.parse("2026-05-01T12:00:00Z");
  const rule: FarmRule = {
    block: { kind: "rate", limit: 2, windowMs: 60_000, penaltyMs: 60_000, style: "anomaly" },
    latencyMs: [0, 0],
  };
  const farm = engineFarm({ duckduckgo: rule, mojeek: OPEN }, {
    now: () => now,
    sleep: () => Promise.resolve(),
  });
  const web = await startFixtureWeb([farm.route]);
  try {
    const d = deps(farm.env(web.origin), () => now);
    const engines = ["duckduckgo", "mojeek"];
    const ask = (i: number) => searchEngines(parseQuery(`t${i}`), { count: 5, engines }, d);
    for (let i = 0; i < 6; i++) {
      const answer = await ask(i);
      assert.equal(answer.candidates.length, 5);
      now += 5_000;
    }
    // Two answers, then the anomaly page once; the cool-down (1 min) covers the rest.
    assert.deepEqual(farm.counts.duckduckgo, { requests: 3, answered: 2, blocked: 1 });
    assert.ok(coolingUntil(await d.health.get("duckduckgo"), now) !== undefined);
    now += 60_000;
    // Past the cool-down it is asked again (an explicit --engine list keeps its order).
    const later = await ask(99);
    assert.equal(later.engine, "duckduckgo");
    assert.equal(farm.counts.duckduckgo!.requests, 4);
  } finally {
    await web.close();
  }
});

Deno.test("searchEngines() tops a long answer up from the next engine when the first runs out", async () => {
  // Startpage blocks after two pages; Mojeek gives the rest.
  const farm = engineFarm({
    startpage: {
      block: { kind: "rate", limit: 2, windowMs: 60_000, penaltyMs: 60_000, style: "throttle" },
      latencyMs: [0, 0],
    },
    mojeek: OPEN,
  }, { now: Date.now, sleep: () => Promise.resolve() });
  const web = await startFixtureWeb([farm.route]);
  try {
    const answer = await searchEngines(parseQuery("top up t3"), {
      count: 40,
      engines: ["startpage", "mojeek"],
    }, deps(farm.env(web.origin), Date.now));
    assert.equal(answer.engine, "startpage,mojeek");
    assert.equal(answer.candidates.length, 40);
    assert.equal(new Set(answer.candidates.map((c) => c.url)).size, 40);
    assert.equal(answer.candidates[0]!.engine, "startpage");
    assert.equal(answer.candidates[39]!.engine, "mojeek");
    assert.deepEqual(answer.candidates.map((c) => c.rank), [...Array(40).keys()].map((i) => i + 1));
  } finally {
    await web.close();
  }
});
