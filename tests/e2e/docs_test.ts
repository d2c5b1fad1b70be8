import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { runQuarry, tempHome } from "../support/run_quarry.ts";

interface Env {
  success: boolean;
  results: { title: string; content: string; source_url: string | null; tokens: number }[];
  error?: { code: string; message: string; suggestions: string[] };
  metadata: Record<string, unknown>;
}

Deno.test("quarry docs answers within --max-tokens, then from the cache", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  const env = { QUARRY_CONTEXT7_URL: `${web.origin}/context7`, CONTEXT7_API_KEY: "ctx7sk-e2e" };
  try {
    const run = await runQuarry(
      ["docs", "react", "useState hook", "--max-tokens", "300", "--json"],
      {
        home,
        env,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const first = run.json as Env;
    assert.equal(first.success, true);
    assert.equal(first.metadata.library_id, "/facebook/react");
    assert.equal(first.metadata.cache_hit, false);
    assert.ok((first.metadata.tokens_used as number) <= 300);
    assert.ok(first.results.length > 0);

    const again = await runQuarry(["docs", "React", "useState hook", "--max-tokens", "300"], {
      home,
      env,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^# React: useState hook\n/);
    assert.match(again.stdout, /cached_/);

    const stats = await runQuarry(["cache", "stats", "--json"], { home });
    assert.equal((stats.json as Env).metadata.entries, 1);
    const cleared = await runQuarry(["cache", "clear", "USESTATE hook"], { home });
    assert.match(cleared.stdout, /Cleared 1 cached answer/);
  } finally {
    await web.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("quarry docs fails with a code and hints for an unknown library or no key", async () => {
  const web = await startFixtureWeb();
  try {
    const unknown = await runQuarry(["docs", "reactive-streams", "backpressure", "--json"], {
      env: { QUARRY_CONTEXT7_URL: `${web.origin}/context7`, CONTEXT7_API_KEY: "ctx7sk-e2e" },
    });
    assert.equal(unknown.code, 1);
    const env = unknown.json as Env;
    assert.equal(env.error?.code, "LIBRARY_NOT_FOUND");
    assert.ok(env.error?.suggestions.some((s) => s.includes("/facebook/react")));

    const noKey = await runQuarry(["docs", "react", "hooks"], {
      env: { QUARRY_CONTEXT7_URL: `${web.origin}/context7` },
    });
    assert.equal(noKey.code, 1);
    assert.match(noKey.stderr, /MISSING_API_KEY/);
    assert.match(noKey.stderr, /context7\.com\/dashboard/);
  } finally {
    await web.close();
  }
});
