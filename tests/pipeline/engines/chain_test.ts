/**
 * The engine chain against the fixture web with a real KV file: failover,
 * cool-down that outlives the KV handle, the polite delay, and the error
 * when every engine fails.
 */
import assert from "node:assert/strict";
import type { Config } from "../../../src/config.ts";
import { QuarryError } from "../../../src/errors.ts";
import { kvHealth } from "../../../src/store/kv/health.ts";
import {
  type ChainDeps,
  defaultChain,
  EngineChainError,
  resolveChain,
  searchEngines,
} from "../../../src/pipeline/engines/mod.ts";
import type { EngineName } from "../../../src/pipeline/engines/types.ts";
import { parseQuery } from "../../../src/pipeline/query.ts";
import { type FixtureWeb, startFixtureWeb } from "../../support/fixture_web.ts";
import type { EngineMode } from "../../support/web/engines.ts";
import { fakeConfig } from "./engine_deps.ts";

const T0 = Date.parse("2026-05-01T12:00:00Z");
const MINUTE = 60_000;

interface Harness {
  web: FixtureWeb;
  dir: string;
  kv: Deno.Kv;
  clock: { now: number };
  slept: number[];
  deps(modes?: Partial<Record<EngineName, EngineMode>>, env?: Record<string, string>): ChainDeps;
  reopen(): Promise<void>;
  close(): Promise<void>;
}

async function harness(): Promise<Harness> {
  const web = await startFixtureWeb();
  const dir = await Deno.makeTempDir({ prefix: "quarry-chain-" });
  const h: Harness = {
    web,
    dir,
    kv: await Deno.openKv(`${dir}/kv.sqlite3`),
    clock: { now: T0 },
    slept: [],
    deps(modes = {}, env = {}) {
      const config: Config = fakeConfig(web.origin, modes, {
        QUARRY_COOLDOWN: "15m",
        SEARXNG_URL: "",
        BRAVE_API_KEY: "",
        EXA_API_KEY: "",
        ...env,
      });
      return {
        config,
        fetch: globalThis.fetch,
        now: () => h.clock.now,
        sleep: (ms) => {
          h.slept.push(ms);
          h.clock.now += ms;
          return Promise.resolve();
        },
        // The hedge timer never fires here: engines are asked one after another.
        timer: (_ms, signal) =>
          new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
        random: () => 0,
        health: kvHealth(h.kv),
      };
    },
    // A new handle on the same file, as another process would open it.
    async reopen() {
      h.kv.close();
      h.kv = await Deno.openKv(`${dir}/kv.sqlite3`);
    },
    async close() {
      h.kv.close();
      await web.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
  return h;
}

const ddgRequests = (web: FixtureWeb) => web.requests.filter((r) => r.includes("/ddg/")).length;

Deno.test("searchEngines() fails over from a blocked engine to the next and says so", async () => {
  const h = await harness();
  try {
    const answer = await searchEngines(
      parseQuery("deno kv"),
      { count: 3 },
      h.deps({ duckduckgo: "captcha" }),
    );
    assert.equal(answer.engine, "duckduckgo-lite");
    assert.equal(answer.candidates.length, 3);
    assert.equal(answer.totalAvailable, 5);
    assert.ok(answer.candidates.every((c) => c.engine === "duckduckgo-lite"));
    assert.deepEqual(answer.attempts.map((a) => [a.engine, a.outcome, a.code]), [
      ["duckduckgo", "blocked", "CAPTCHA"],
      ["duckduckgo-lite", "ok", undefined],
    ]);
    assert.equal(answer.attempts[0]!.until, new Date(T0 + 15 * MINUTE).toISOString());
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() keeps a blocked engine on cool-down across KV handles, then asks it again", async () => {
  const h = await harness();
  try {
    await searchEngines(parseQuery("deno kv"), { count: 3 }, h.deps({ duckduckgo: "captcha" }));
    assert.equal(ddgRequests(h.web), 1);
    await h.reopen();
    // DuckDuckGo is fine now, but its cool-down has 10 minutes to run: it is not asked.
    h.clock.now = T0 + 5 * MINUTE;
    const later = await searchEngines(parseQuery("deno kv"), { count: 3 }, h.deps());
    assert.equal(later.engine, "duckduckgo-lite");
    assert.deepEqual(later.attempts[0], {
      engine: "duckduckgo",
      outcome: "cooldown",
      code: "CAPTCHA",
      message: "DuckDuckGo blocked the request: anomaly page (HTTP 202)",
      until: new Date(T0 + 15 * MINUTE).toISOString(),
    });
    assert.equal(ddgRequests(h.web), 1);
    // Past the cool-down it is asked again, but after the engines that have not been blocked.
    h.clock.now = T0 + 16 * MINUTE;
    const after = await searchEngines(parseQuery("deno kv"), { count: 3 }, h.deps());
    assert.equal(after.engine, "duckduckgo-lite");
    assert.ok(!after.attempts.some((a) => a.outcome === "cooldown"));
    const asked = await searchEngines(parseQuery("deno kv"), {
      count: 3,
      engines: ["duckduckgo"],
    }, h.deps());
    assert.equal(asked.engine, "duckduckgo");
    assert.equal(ddgRequests(h.web), 2);
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() cools a rate-limited engine down for its Retry-After", async () => {
  const h = await harness();
  try {
    const deps = h.deps({ duckduckgo: "ratelimit" });
    const answer = await searchEngines(parseQuery("deno kv"), { count: 3 }, deps);
    assert.equal(answer.attempts[0]!.outcome, "blocked");
    assert.equal(answer.attempts[0]!.code, "RATE_LIMITED");
    const record = await kvHealth(h.kv).get("duckduckgo");
    assert.equal(record?.until, T0 + 120_000);
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() moves on after an error without cooling the engine down", async () => {
  const h = await harness();
  try {
    const answer = await searchEngines(
      parseQuery("deno kv"),
      { count: 3 },
      h.deps({ duckduckgo: "malformed" }),
    );
    assert.deepEqual(answer.attempts[0]!.outcome, "error");
    assert.equal(answer.attempts[0]!.code, "UPSTREAM_ERROR");
    assert.equal((await kvHealth(h.kv).get("duckduckgo"))?.until, undefined);
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() with every engine blocked throws CAPTCHA with the attempts and what to do", async () => {
  const h = await harness();
  try {
    const modes = {
      duckduckgo: "captcha",
      "duckduckgo-lite": "captcha",
      bing: "captcha",
      mojeek: "ratelimit",
      startpage: "captcha",
      "brave-html": "captcha",
      wikipedia: "captcha",
    } as const;
    const error = await searchEngines(parseQuery("deno kv"), { count: 3 }, h.deps(modes)).then(
      () => assert.fail("expected the chain to fail"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof EngineChainError);
    assert.equal(error.code, "CAPTCHA");
    assert.deepEqual(error.attempts.map((a) => a.outcome), Array(7).fill("blocked"));
    // The Markdown report names each engine's cause, not only --json.
    assert.match(error.message, /\n- bing: CAPTCHA: Bing blocked the request/);
    assert.ok(error.suggestions.some((s) => s.includes("SEARXNG_URL")));
    assert.ok(error.suggestions.some((s) => s.includes("BRAVE_API_KEY")));
    // Mojeek's Retry-After (2 minutes) ends first.
    assert.ok(
      error.suggestions.some((s) => s.startsWith("Wait 2 minutes")),
      error.suggestions.join("; "),
    );
    assert.equal(error.retryAfter, 120);
    // Every engine is on cool-down now: the next call fails without a request.
    const before = h.web.requests.length;
    const again = await searchEngines(parseQuery("deno kv"), { count: 3 }, h.deps()).catch((e) =>
      e
    );
    assert.ok(again instanceof EngineChainError);
    assert.equal(again.code, "CAPTCHA");
    assert.ok(again.attempts.every((a) => a.outcome === "cooldown"));
    assert.equal(h.web.requests.length, before);
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() picks RATE_LIMITED, then UPSTREAM_ERROR, as the most telling code", async () => {
  const h = await harness();
  try {
    const engines = ["duckduckgo", "bing"];
    const limited = await searchEngines(
      parseQuery("x"),
      { count: 3, engines },
      h.deps({ duckduckgo: "down", bing: "ratelimit" }),
    ).catch((e) => e);
    assert.equal((limited as QuarryError).code, "RATE_LIMITED");
    const broken = await searchEngines(
      parseQuery("x"),
      { count: 3, engines: ["mojeek", "google"] },
      h.deps({ mojeek: "down", google: "malformed" }),
    ).catch((e) => e);
    assert.equal((broken as QuarryError).code, "UPSTREAM_ERROR");
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() holds site: even though the engine ignores it", async () => {
  const h = await harness();
  try {
    const answer = await searchEngines(
      parseQuery("report site:example.org"),
      { count: 5 },
      h.deps(),
    );
    assert.equal(answer.engine, "duckduckgo");
    assert.deepEqual(answer.candidates.map((c) => [c.url, c.rank]), [
      ["https://example.org/reports/annual-2024.pdf", 1],
    ]);
    const docs = await searchEngines(
      parseQuery("site:example.com -about"),
      { count: 5 },
      h.deps(),
    );
    assert.deepEqual(docs.candidates.map((c) => c.url), [
      "https://docs.example.com/guide/getting-started",
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() asks the next engine when nothing satisfies the operators, and ends empty", async () => {
  const h = await harness();
  try {
    const answer = await searchEngines(
      parseQuery("x site:nowhere.invalid"),
      { count: 5 },
      h.deps(),
    );
    assert.deepEqual(answer.candidates, []);
    assert.equal(answer.engine, "duckduckgo");
    assert.deepEqual(answer.attempts.map((a) => [a.engine, a.outcome, a.results]), [
      ["duckduckgo", "ok", 0],
      ["duckduckgo-lite", "ok", 0],
      ["bing", "ok", 0],
      ["mojeek", "ok", 0],
      ["startpage", "ok", 0],
      ["brave-html", "ok", 0],
      ["wikipedia", "ok", 0],
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() spaces requests to one engine by the polite delay", async () => {
  const h = await harness();
  try {
    const deps = h.deps({}, { QUARRY_RATE_LIMIT: "1s" });
    await searchEngines(parseQuery("a"), { count: 1, engines: ["bing"] }, deps);
    assert.deepEqual(h.slept, []);
    h.clock.now += 300;
    await searchEngines(parseQuery("b"), { count: 1, engines: ["bing"] }, deps);
    assert.deepEqual(h.slept, [700]);
    // Another engine has its own clock.
    await searchEngines(parseQuery("c"), { count: 1, engines: ["mojeek"] }, deps);
    assert.deepEqual(h.slept, [700]);
  } finally {
    await h.close();
  }
});

Deno.test("searchEngines() skips engines that are not configured and says why", async () => {
  const h = await harness();
  try {
    const answer = await searchEngines(parseQuery("deno"), {
      count: 2,
      engines: ["brave", "exa", "mojeek"],
    }, h.deps());
    assert.deepEqual(answer.attempts.map((a) => [a.engine, a.outcome, a.message]), [
      ["brave", "skipped", "BRAVE_API_KEY is not set"],
      ["exa", "skipped", "EXA_API_KEY is not set"],
      ["mojeek", "ok", undefined],
    ]);
    const none = await searchEngines(parseQuery("deno"), { count: 2, engines: ["brave"] }, h.deps())
      .catch((e) => e);
    assert.equal((none as QuarryError).code, "MISSING_API_KEY");
  } finally {
    await h.close();
  }
});

Deno.test("defaultChain() puts SearXNG first and adds keyed APIs only with their keys", () => {
  const origin = "http://127.0.0.1:9";
  const bare = fakeConfig(origin, {}, { SEARXNG_URL: "", BRAVE_API_KEY: "", EXA_API_KEY: "" });
  const keyless = [
    "duckduckgo",
    "duckduckgo-lite",
    "bing",
    "mojeek",
    "startpage",
    "brave-html",
    "wikipedia",
  ];
  assert.deepEqual(defaultChain(bare), keyless);
  assert.deepEqual(defaultChain(fakeConfig(origin)), [
    "searxng",
    ...keyless,
    "brave",
    "exa",
  ]);
});

Deno.test("resolveChain() reads --engine lists and QUARRY_ENGINES, refusing unknown names", () => {
  const config = fakeConfig("http://127.0.0.1:9", {}, { QUARRY_ENGINES: "bing, mojeek" });
  assert.deepEqual(resolveChain(config), ["bing", "mojeek"]);
  assert.deepEqual(resolveChain(config, ["Google,bing", "google"]), ["google", "bing"]);
  assert.throws(
    () => resolveChain(config, ["yahoo"]),
    (e: unknown) =>
      e instanceof QuarryError && e.code === "BAD_INPUT" && e.message.includes("yahoo"),
  );
});
