import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { runQuarry, tempHome } from "../support/run_quarry.ts";

interface Env {
  success: boolean;
  answer?: string;
  results: { index: number; url: string; title: string | null; cited: boolean }[];
  error?: { code: string; message: string; suggestions: string[] };
  metadata: Record<string, unknown>;
}

Deno.test("quarry deep returns a cited answer, archives it, then answers from the cache", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  const env = { QUARRY_PERPLEXITY_URL: `${web.origin}/perplexity`, PERPLEXITY_API_KEY: "pplx-e2e" };
  try {
    const run = await runQuarry(
      ["deep", "sqlite wal concurrency", "--max-tokens", "200", "--json"],
      {
        home,
        env,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const first = run.json as Env;
    assert.equal(first.success, true);
    assert.ok(first.answer && !first.answer.includes("<think>"));
    assert.equal(first.metadata.backend, "perplexity-deep-research");
    assert.equal(first.metadata.confidence, "MEDIUM");
    assert.ok((first.metadata.tokens_used as number) <= 200);
    assert.equal(first.results[0]?.url, "https://www.sqlite.org/wal.html");

    const again = await runQuarry(["deep", "SQLite WAL concurrency", "--max-tokens", "200"], {
      home,
      env,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^# SQLite WAL mode and concurrency/);
    assert.match(again.stdout, /^## Sources$/m);
    const count = web.requests.filter((r) => r.includes("chat/completions")).length;
    assert.equal(count, 1, "the second run was a cache hit");

    const search = await runQuarry(["archive", "search", "checkpoint starvation", "--json"], {
      home,
    });
    assert.equal(search.code, 0, search.stderr);
    const hits = (search.json as { results: { id: string; source: string }[] }).results;
    assert.equal(hits.length, 1);
    assert.equal(hits[0]?.id, first.metadata.archive_id);
    assert.equal(hits[0]?.source, "research");
    const related = await runQuarry(["archive", "related", hits[0]!.id, "--json"], { home });
    assert.equal(related.code, 0, related.stderr);
    const edges = (related.json as { results: { url: string | null; kind: string }[] }).results;
    assert.ok(
      edges.some((e) => e.kind === "citation" && e.url === "https://www.sqlite.org/wal.html"),
    );
  } finally {
    await web.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("quarry deep without a key exits 1 with MISSING_API_KEY", async () => {
  const run = await runQuarry(["deep", "anything", "--json"]);
  assert.equal(run.code, 1);
  const env = run.json as Env;
  assert.equal(env.error?.code, "MISSING_API_KEY");
  assert.match(env.error?.suggestions.join(" ") ?? "", /perplexity\.ai\/settings\/api/);
});
