import assert from "node:assert/strict";
import { type Check, doctorOp } from "../../src/ops/doctor.ts";
import type { EngineName } from "../../src/pipeline/engines/types.ts";
import { afterBlock } from "../../src/pipeline/engines/health.ts";
import { kvHealth } from "../../src/store/kv/health.ts";
import type { Envelope } from "../../src/envelope.ts";
import { type FixtureWeb, startFixtureWeb } from "../support/fixture_web.ts";
import { type EngineMode, fakeEngineEnv } from "../support/web/engines.ts";
import { apiContext, type ApiTestContext } from "./api_context.ts";

async function doctorContext(
  web: FixtureWeb,
  modes: Partial<Record<EngineName, EngineMode>> = {},
  env: Record<string, string> = {},
): Promise<ApiTestContext> {
  return await apiContext(web, {
    ...fakeEngineEnv(web.origin, modes, { searxng: true }),
    QUARRY_RATE_LIMIT: "0",
    CONTEXT7_API_KEY: "",
    ...env,
  });
}

function byName(env: Envelope): Map<string, Check> {
  return new Map(((env.results ?? []) as Check[]).map((c) => [c.name, c]));
}

Deno.test("doctor reports each engine, the keys, SearXNG's JSON output and the data directory", async () => {
  const web = await startFixtureWeb();
  const test = await doctorContext(web, { searxng: "forbidden", bing: "captcha" });
  try {
    const env = await doctorOp.run(test.ctx, { offline: false });
    assert.equal(env.success, true);
    const checks = byName(env);
    assert.equal(checks.get("duckduckgo")?.status, "ok");
    assert.match(checks.get("duckduckgo")!.detail, /^reachable, 5 results in \d+ ms$/);
    assert.equal(checks.get("bing")?.status, "blocked");
    assert.match(checks.get("bing")!.detail, /^CAPTCHA: Bing blocked the request/);
    assert.equal(checks.get("searxng")?.status, "error");
    assert.match(checks.get("searxng")!.detail, /JSON output is not enabled/);
    assert.deepEqual(
      [checks.get("brave")?.status, checks.get("brave")?.detail],
      ["missing_key", "BRAVE_API_KEY is not set"],
    );
    assert.equal(checks.get("context7")?.status, "missing_key");
    assert.equal(checks.get("perplexity")?.status, "ok");
    assert.equal(checks.get("data directory")?.status, "ok");
    assert.match(checks.get("data directory")!.detail, /\(writable\)$/);
    assert.equal(checks.get("kv store")?.status, "ok");
    // Doctor only looks: a block it sees does not put the engine on cool-down.
    const kv = await test.ctx.stores.kv();
    assert.equal((await kv.get(["health", "bing"])).value, null);
    const text = doctorOp.render!(env, { offline: false });
    assert.match(text, /^blocked +bing +CAPTCHA: Bing blocked the request/m);
    assert.equal(text.trimEnd().split("\n").length, checks.size);
  } finally {
    await test.close();
    await web.close();
  }
});

Deno.test("doctor SearXNG line says JSON output is enabled when it answers", async () => {
  const web = await startFixtureWeb();
  const test = await doctorContext(web);
  try {
    const env = await doctorOp.run(test.ctx, { offline: false });
    assert.match(byName(env).get("searxng")!.detail, /^JSON output enabled; reachable/);
  } finally {
    await test.close();
    await web.close();
  }
});

Deno.test("doctor shows a cool-down with its end and does not probe that engine", async () => {
  const web = await startFixtureWeb();
  const test = await doctorContext(web);
  try {
    const kv = await test.ctx.stores.kv();
    const until = test.clock.t + 600_000;
    await kvHealth(kv).update(
      "mojeek",
      (old) =>
        afterBlock(old, { code: "CAPTCHA", message: "Mojeek refused" }, test.clock.t, {
          cooldownMs: 600_000,
          maxCooldownMs: 600_000,
        }),
    );
    const env = await doctorOp.run(test.ctx, { offline: false });
    const mojeek = byName(env).get("mojeek")!;
    assert.equal(mojeek.status, "cooldown");
    assert.equal(mojeek.until, new Date(until).toISOString());
    assert.match(mojeek.health ?? "", /1 block \(last /);
    assert.ok(!web.requests.some((r) => r.startsWith("/mojeek/")));
  } finally {
    await test.close();
    await web.close();
  }
});

Deno.test("doctor fails with CAPTCHA when no engine of the chain can search, and names one that can", async () => {
  const web = await startFixtureWeb();
  const modes = {
    duckduckgo: "captcha",
    "duckduckgo-lite": "captcha",
    bing: "captcha",
    mojeek: "ratelimit",
    startpage: "captcha",
    "brave-html": "captcha",
    wikipedia: "down",
    searxng: "down",
  } as const;
  const test = await doctorContext(web, modes);
  try {
    const env = await doctorOp.run(test.ctx, { offline: false });
    assert.equal(env.success, false);
    if (env.success) return;
    assert.equal(env.error.code, "CAPTCHA");
    assert.equal(env.error.suggestions[0], "google answers: try --engine google");
    assert.equal(byName(env).size, 16, "the lines are still reported");
  } finally {
    await test.close();
    await web.close();
  }
});

Deno.test("doctor --offline sends no search and still reads keys and cool-downs", async () => {
  const web = await startFixtureWeb();
  const test = await doctorContext(web);
  try {
    const env = await doctorOp.run(test.ctx, { offline: true });
    assert.equal(env.success, true);
    assert.equal(byName(env).get("duckduckgo")?.status, "not_probed");
    assert.deepEqual(web.requests, []);
  } finally {
    await test.close();
    await web.close();
  }
});

Deno.test("doctor reports a data directory it cannot write", async () => {
  const web = await startFixtureWeb();
  const file = await Deno.makeTempFile();
  const test = await doctorContext(web, {}, { QUARRY_HOME: `${file}/quarry` });
  try {
    const env = await doctorOp.run(test.ctx, { offline: true });
    assert.equal(env.success, false);
    const checks = byName(env);
    assert.equal(checks.get("data directory")?.status, "error");
    assert.match(checks.get("data directory")!.detail, /is not writable/);
    assert.equal(checks.get("kv store")?.status, "error");
    if (!env.success) assert.equal(env.error.code, "PERMISSION_DENIED");
  } finally {
    await test.close();
    await web.close();
    await Deno.remove(file);
  }
});
