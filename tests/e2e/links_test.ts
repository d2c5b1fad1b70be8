/**
 * `quarry links` and `quarry doctor` through the real CLI, with the task's
 * scoped permissions, against the fake engines of the fixture web.
 */
import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { runQuarry, tempHome } from "../support/run_quarry.ts";
import { fakeEngineEnv } from "../support/web/engines.ts";

interface Attempt {
  engine: string;
  outcome: string;
  code?: string;
  until?: string;
}
interface LinksEnvelope {
  success: boolean;
  results?: { url: string; engine: string; rank: number }[];
  error?: { code: string; message: string; suggestions: string[] };
  metadata: { engine?: string; attempts: Attempt[]; returned?: number };
}

const ALL_BLOCKED = {
  duckduckgo: "captcha",
  "duckduckgo-lite": "captcha",
  bing: "captcha",
  mojeek: "captcha",
  startpage: "captcha",
  "brave-html": "captcha",
  wikipedia: "captcha",
} as const;

Deno.test("quarry links: a CAPTCHA on DuckDuckGo fails over to DuckDuckGo Lite", async () => {
  const web = await startFixtureWeb();
  try {
    const env = fakeEngineEnv(web.origin, { duckduckgo: "captcha" });
    const run = await runQuarry(["links", "deno kv", "-n", "3", "--json"], { env });
    assert.equal(run.code, 0, run.stderr);
    const out = run.json as LinksEnvelope;
    assert.equal(out.success, true);
    assert.equal(out.metadata.engine, "duckduckgo-lite");
    assert.deepEqual(out.metadata.attempts.map((a) => [a.engine, a.outcome, a.code]), [
      ["duckduckgo", "blocked", "CAPTCHA"],
      ["duckduckgo-lite", "ok", undefined],
    ]);
    assert.deepEqual(out.results!.map((r) => r.rank), [1, 2, 3]);
    assert.equal(out.results![0]!.url, `${web.origin}/pages/articles/deno-kv.html`);
  } finally {
    await web.close();
  }
});

Deno.test("quarry links: every engine blocked exits 1 with CAPTCHA and hints", async () => {
  const web = await startFixtureWeb();
  try {
    const env = fakeEngineEnv(web.origin, ALL_BLOCKED);
    const home = await tempHome();
    const json = await runQuarry(["links", "deno kv", "--json"], { env, home });
    assert.equal(json.code, 1);
    const out = json.json as LinksEnvelope;
    assert.equal(out.success, false);
    assert.equal(out.error?.code, "CAPTCHA");
    assert.equal(out.metadata.attempts.length, 7);
    // The report form says the same on stderr, now from the cool-downs alone.
    const report = await runQuarry(["links", "deno kv"], { env, home });
    assert.equal(report.code, 1);
    assert.equal(report.stdout, "");
    assert.match(report.stderr, /^error \[CAPTCHA\]: Every search engine is blocked/);
    // Wikipedia's 429 asked for 2 minutes; the CAPTCHAs cool for a first minute.
    assert.match(report.stderr, /hint: Wait 1 minute:/);
    assert.match(report.stderr, /\n- bing: on cool-down until /);
    assert.match(report.stderr, /hint: Set SEARXNG_URL/);
    await Deno.remove(home, { recursive: true });
  } finally {
    await web.close();
  }
});

Deno.test("quarry links: a cool-down written by one process is honoured by the next", async () => {
  const web = await startFixtureWeb();
  try {
    const home = await tempHome();
    const first = await runQuarry(["links", "deno kv", "--json"], {
      env: fakeEngineEnv(web.origin, { duckduckgo: "captcha" }),
      home,
    });
    assert.equal(first.code, 0, first.stderr);
    const ddgRequests = () => web.requests.filter((r) => r.startsWith("/ddg/")).length;
    assert.equal(ddgRequests(), 1);
    // DuckDuckGo works again, but the second process skips it until the cool-down ends.
    const second = await runQuarry(["links", "deno kv", "--json"], {
      env: fakeEngineEnv(web.origin),
      home,
    });
    assert.equal(second.code, 0, second.stderr);
    const out = second.json as LinksEnvelope;
    assert.equal(out.metadata.engine, "duckduckgo-lite");
    assert.equal(out.metadata.attempts[0]?.outcome, "cooldown");
    assert.equal(
      out.metadata.attempts[0]?.until,
      (first.json as LinksEnvelope).metadata.attempts[0]?.until,
    );
    assert.equal(ddgRequests(), 1);
    await Deno.remove(home, { recursive: true });
  } finally {
    await web.close();
  }
});

Deno.test("quarry links prints a Markdown list; --engine picks the engine", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(["links", "hello site:blog.example.net", "--engine", "mojeek"], {
      env: fakeEngineEnv(web.origin),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      "# hello site:blog.example.net\n\n" +
        "1. [Hello, World! - Example Blog](http://blog.example.net/posts/hello-world)\n" +
        "   The first program everyone writes, and why it matters.\n\n" +
        "_1 result from mojeek_\n",
    );
  } finally {
    await web.close();
  }
});

Deno.test("quarry doctor: one line per check, exit 1 when no engine can search", async () => {
  const web = await startFixtureWeb();
  try {
    const ok = await runQuarry(["doctor"], { env: fakeEngineEnv(web.origin) });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^ok +duckduckgo +reachable/m);
    assert.match(ok.stdout, /^missing_key +brave +BRAVE_API_KEY is not set$/m);
    assert.match(ok.stdout, /^ok +data directory +.+ \(writable\)$/m);
    const blocked = await runQuarry(["doctor", "--json"], {
      env: fakeEngineEnv(web.origin, { ...ALL_BLOCKED, google: "captcha" }),
    });
    assert.equal(blocked.code, 1);
    const out = blocked.json as { success: boolean; error: { code: string } };
    assert.equal(out.success, false);
    assert.equal(out.error.code, "CAPTCHA");
  } finally {
    await web.close();
  }
});

Deno.test("quarry search with the network down says so, names the host and suggests --local", async () => {
  // Nothing listens on port 9 of loopback: every engine's connection is refused.
  const env = fakeEngineEnv("http://127.0.0.1:9");
  const run = await runQuarry(["search", "deno kv"], { env });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^error \[UPSTREAM_ERROR\]: The network is unreachable/);
  assert.match(
    run.stderr,
    /\n- duckduckgo: UPSTREAM_ERROR: Cannot reach DuckDuckGo \(127\.0\.0\.1:9\)/,
  );
  assert.match(run.stderr, /hint: Use --local \(`quarry search --local`\)/);
  assert.doesNotMatch(run.stderr, /API_KEY|SEARXNG_URL/);
});
