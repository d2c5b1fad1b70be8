/**
 * The hedged chain and rank fusion against the fixture web: a silent engine
 * is overtaken after the hedge delay and cancelled, a blocked one costs one
 * round trip, fused results carry every engine that returned them, and a
 * network that is down is named as such.
 */
import assert from "node:assert/strict";
import {
  type ChainDeps,
  EngineChainError,
  searchEngines,
} from "../../../src/pipeline/engines/mod.ts";
import { memoryHealth } from "../../../src/pipeline/engines/health.ts";
import type { EngineName } from "../../../src/pipeline/engines/types.ts";
import { parseQuery } from "../../../src/pipeline/query.ts";
import { startFixtureWeb } from "../../support/fixture_web.ts";
import type { EngineMode } from "../../support/web/engines.ts";
import { fakeConfig } from "./engine_deps.ts";

const NO_KEYS = { SEARXNG_URL: "", BRAVE_API_KEY: "", EXA_API_KEY: "" };

/** A hedge timer the test fires by hand; `started` counts the timers set. */
function manualTimer() {
  const pending: (() => void)[] = [];
  return {
    pending,
    timer: (_ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        pending.push(resolve);
        signal.addEventListener("abort", () => reject(signal.reason));
      }),
  };
}

function deps(
  origin: string,
  modes: Partial<Record<EngineName, EngineMode>>,
  timer: ChainDeps["timer"],
  env: Record<string, string> = {},
): ChainDeps {
  return {
    config: fakeConfig(origin, modes, { ...NO_KEYS, ...env }),
    fetch: globalThis.fetch,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    health: memoryHealth(),
    ...(timer ? { timer } : {}),
    random: () => 0,
  };
}

const never: ChainDeps["timer"] = (_ms, signal) =>
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));

Deno.test("searchEngines() asks the next engine when the first is silent past the hedge delay, and cancels the first", async () => {
  const web = await startFixtureWeb();
  try {
    const clock = manualTimer();
    const d = deps(web.origin, { duckduckgo: "slow" }, clock.timer);
    const answer = searchEngines(parseQuery("deno kv"), { count: 3 }, d);
    // DuckDuckGo (slow: 3 s) is asked alone until the hedge delay passes.
    while (clock.pending.length === 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal(web.requests.filter((r) => r.includes("/ddg-lite/")).length, 0);
    clock.pending.shift()!();
    const result = await answer;
    assert.equal(result.engine, "duckduckgo-lite");
    assert.deepEqual(result.attempts.map((a) => [a.engine, a.outcome]), [
      ["duckduckgo", "cancelled"],
      ["duckduckgo-lite", "ok"],
    ]);
  } finally {
    await web.close();
  }
});

Deno.test("searchEngines() moves past a blocked engine at once, without waiting for the hedge delay", async () => {
  const web = await startFixtureWeb();
  try {
    const d = deps(web.origin, { duckduckgo: "captcha", "duckduckgo-lite": "down" }, never);
    const result = await searchEngines(parseQuery("deno kv"), { count: 3 }, d);
    assert.equal(result.engine, "bing");
    assert.deepEqual(result.attempts.map((a) => a.outcome), ["blocked", "error", "ok"]);
    assert.equal(web.requests.filter((r) => r.includes("/ddg/")).length, 1);
  } finally {
    await web.close();
  }
});

Deno.test("searchEngines() with fusion asks K engines and lists every engine that returned a result", async () => {
  const web = await startFixtureWeb();
  try {
    const d = deps(web.origin, { duckduckgo: "captcha" }, never);
    const result = await searchEngines(parseQuery("deno kv"), {
      count: 5,
      fusion: 3,
      engines: ["duckduckgo", "bing", "mojeek", "startpage"],
    }, d);
    // DuckDuckGo was blocked, so the fourth engine took its place.
    assert.equal(result.engine, "bing,mojeek,startpage");
    assert.equal(result.candidates.length, 5);
    const first = result.candidates[0]!;
    assert.equal(first.url, `${web.origin}/pages/articles/deno-kv.html`);
    assert.deepEqual(first.engines, [
      { engine: "bing", rank: 1 },
      { engine: "mojeek", rank: 1 },
      { engine: "startpage", rank: 1 },
    ]);
    // Mojeek's protocol-relative blog link resolves to http here, so it stands alone.
    const blog = result.candidates.find((c) => c.url.startsWith("https://blog.example.net"));
    assert.deepEqual(blog?.engines?.map((e) => e.engine), ["bing", "startpage"]);
    assert.ok(result.candidates.every((c) => (c.engines?.length ?? 0) >= 2));
    assert.deepEqual(result.candidates.map((c) => c.rank), [1, 2, 3, 4, 5]);
  } finally {
    await web.close();
  }
});

Deno.test("searchEngines() with the network down says so, names the host, and suggests --local", async () => {
  // Port 9 on loopback refuses connections: every engine is unreachable.
  const d = deps("http://127.0.0.1:9", {}, never);
  const error = await searchEngines(parseQuery("deno kv"), { count: 3 }, d).then(
    () => assert.fail("expected a failure"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof EngineChainError);
  assert.equal(error.code, "UPSTREAM_ERROR");
  assert.match(error.message, /^The network is unreachable: .*127\.0\.0\.1:9/);
  assert.match(
    error.message,
    /\n- duckduckgo: UPSTREAM_ERROR: Cannot reach DuckDuckGo \(127\.0\.0\.1:9\)/,
  );
  assert.ok(error.suggestions.some((s) => s.includes("--local")));
  // Keys would not help: no key hints.
  assert.ok(
    !error.suggestions.some((s) => /API_KEY|SEARXNG_URL/.test(s)),
    error.suggestions.join("; "),
  );
});

Deno.test("searchEngines() lifts SearXNG's JSON hint into the chain's error", async () => {
  const web = await startFixtureWeb();
  try {
    const d = deps(web.origin, { searxng: "forbidden", duckduckgo: "down" }, never, {
      SEARXNG_URL: `${web.origin}/searxng/~forbidden`,
    });
    const error = await searchEngines(parseQuery("deno kv"), {
      count: 3,
      engines: ["searxng", "duckduckgo"],
    }, d).catch((e: unknown) => e);
    assert.ok(error instanceof EngineChainError);
    assert.match(error.suggestions[0] ?? "", /^searxng: Add `json` to `search\.formats`/);
  } finally {
    await web.close();
  }
});

Deno.test("searchEngines() keeps Wikipedia behind the general engines, however healthy", async () => {
  const web = await startFixtureWeb();
  try {
    const d = deps(web.origin, {}, never);
    // DuckDuckGo's block sends it to the back; Wikipedia, never asked, still stays last.
    await d.health.update("duckduckgo", () => ({
      successes: 0,
      failures: 0,
      blocks: 1,
      streak: 0,
      latencyMs: 0,
      recent: [0],
      lastBlock: Date.now() - 3_600_000,
    }));
    const down = {
      duckduckgo: "down",
      "duckduckgo-lite": "down",
      bing: "down",
      mojeek: "down",
      startpage: "down",
      "brave-html": "down",
    } as const;
    const answer = await searchEngines(parseQuery("deno kv"), { count: 3 }, {
      ...d,
      config: fakeConfig(web.origin, down, NO_KEYS),
    });
    assert.deepEqual(answer.attempts.map((a) => a.engine), [
      "duckduckgo-lite",
      "bing",
      "mojeek",
      "startpage",
      "brave-html",
      "duckduckgo",
      "wikipedia",
    ]);
    assert.equal(answer.engine, "wikipedia");
  } finally {
    await web.close();
  }
});
