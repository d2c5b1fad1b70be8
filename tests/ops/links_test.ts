import assert from "node:assert/strict";
import { type LinkResult, linksOp } from "../../src/ops/links.ts";
import type { Envelope } from "../../src/envelope.ts";
import { type FixtureWeb, startFixtureWeb } from "../support/fixture_web.ts";
import { type EngineMode, fakeEngineEnv } from "../support/web/engines.ts";
import type { EngineName } from "../../src/pipeline/engines/types.ts";
import { apiContext } from "./api_context.ts";

type LinksArgs = Parameters<typeof linksOp.run>[1];

async function links(
  web: FixtureWeb,
  args: Partial<LinksArgs> & { query: string },
  modes: Partial<Record<EngineName, EngineMode>> = {},
): Promise<Envelope<LinkResult>> {
  const test = await apiContext(web, {
    ...fakeEngineEnv(web.origin, modes),
    QUARRY_RATE_LIMIT: "0",
  });
  try {
    return await linksOp.run(test.ctx, { count: 5, ...args }) as Envelope<LinkResult>;
  } finally {
    await test.close();
  }
}

Deno.test("links gives results with engine and rank, and metadata naming the engine and attempts", async () => {
  const web = await startFixtureWeb();
  try {
    const env = await links(web, { query: "deno kv", count: 2 }, { duckduckgo: "captcha" });
    assert.equal(env.success, true);
    if (!env.success) return;
    assert.equal(env.command, "links");
    assert.equal(env.query, "deno kv");
    assert.deepEqual(env.results[0], {
      url: `${web.origin}/pages/articles/deno-kv.html`,
      title: "Deno KV: a key-value database built into the runtime",
      snippet:
        "Results for deno kv. Deno KV stores values under keys, with atomic transactions and expiry.",
      engine: "duckduckgo-lite",
      rank: 1,
      engines: [{ engine: "duckduckgo-lite", rank: 1 }],
    });
    assert.equal(env.results.length, 2);
    assert.equal(env.metadata.engine, "duckduckgo-lite");
    assert.equal(env.metadata.total_available, 5);
    assert.equal(env.metadata.returned, 2);
    assert.equal(typeof env.metadata.elapsed_ms, "number");
    const attempts = env.metadata.attempts as { engine: string; outcome: string }[];
    assert.deepEqual(attempts.map((a) => [a.engine, a.outcome]), [
      ["duckduckgo", "blocked"],
      ["duckduckgo-lite", "ok"],
    ]);
    const text = linksOp.render!(env, { query: "deno kv", count: 2 });
    assert.match(
      text,
      /\nEngines that failed:\n- duckduckgo: CAPTCHA: DuckDuckGo blocked the request/,
    );
    // No page was fetched: only the engines were asked.
    assert.ok(web.requests.every((r) => !r.startsWith("/pages/")));
  } finally {
    await web.close();
  }
});

Deno.test("links with every engine blocked fails with CAPTCHA and keeps the attempts", async () => {
  const web = await startFixtureWeb();
  try {
    const blocked = {
      duckduckgo: "captcha",
      "duckduckgo-lite": "captcha",
      bing: "captcha",
      mojeek: "captcha",
      startpage: "captcha",
      "brave-html": "captcha",
      wikipedia: "captcha",
    } as const;
    const env = await links(web, { query: "deno kv" }, blocked);
    assert.equal(env.success, false);
    if (env.success) return;
    assert.equal(env.error.code, "CAPTCHA");
    assert.ok(env.error.suggestions.some((s) => s.includes("SEARXNG_URL")));
    const attempts = env.metadata?.attempts as { outcome: string }[];
    assert.equal(attempts.length, 7);
    assert.ok(attempts.every((a) => a.outcome === "blocked"));
  } finally {
    await web.close();
  }
});

Deno.test("links with fusion merges several engines and names each one per result", async () => {
  const web = await startFixtureWeb();
  try {
    const env = await links(web, {
      query: "deno kv",
      engine: "bing,mojeek,brave-html",
      fusion: true,
    });
    assert.equal(env.success, true);
    if (!env.success) return;
    assert.equal(env.metadata.engine, "bing,mojeek,brave-html");
    assert.deepEqual(env.results[0]!.engines.map((e) => e.engine), [
      "bing",
      "brave-html",
      "mojeek",
    ]);
    const text = linksOp.render!(env, { query: "deno kv", count: 5, fusion: true });
    assert.match(text, /_bing #1, brave-html #1, mojeek #1_/);
  } finally {
    await web.close();
  }
});

Deno.test("links refuses an unknown engine as BAD_INPUT", async () => {
  const web = await startFixtureWeb();
  try {
    const env = await links(web, { query: "x", engine: "bing,altavista" });
    assert.equal(env.success, false);
    if (!env.success) assert.equal(env.error.code, "BAD_INPUT");
  } finally {
    await web.close();
  }
});

Deno.test("links passes region and time range to the engine", async () => {
  const web = await startFixtureWeb();
  try {
    await links(web, { query: "deno", engine: "bing", region: "de-de", time: "week" });
    const sent = web.requests.find((r) => r.startsWith("/bing/search?"))!;
    const params = new URL(sent, web.origin).searchParams;
    assert.equal(params.get("cc"), "de");
    assert.equal(params.get("setlang"), "de");
    assert.equal(params.get("filters"), 'ex1:"ez2"');
  } finally {
    await web.close();
  }
});

Deno.test("links renders a numbered Markdown list with dates and the answering engine", async () => {
  const web = await startFixtureWeb();
  try {
    const args = { query: "deno kv", count: 2, engine: "bing" };
    const env = await links(web, args);
    const text = linksOp.render!(env, { ...args });
    assert.match(
      text,
      /^# deno kv\n\n1\. \[Deno KV: a key-value database built into the runtime\]\(http:\/\/127\.0\.0\.1:\d+\/pages\/articles\/deno-kv\.html\) · 2024-03-10\n {3}Results for deno kv\./,
    );
    assert.match(
      text,
      /\n2\. \[Getting started - Example Docs\]\(https:\/\/docs\.example\.com\/guide\/getting-started\)\n/,
    );
    assert.match(text, /_2 results from bing_\n$/);
  } finally {
    await web.close();
  }
});
