import assert from "node:assert/strict";
import { preferArchived } from "../../src/ops/search.ts";
import type { ResearchOutcome, ResearchResult } from "../../src/pipeline/research.ts";
import { loadTokenizer } from "../../src/text/tokens.ts";

// The search op loads the tokenizer before it counts; this test calls its helper directly.
await loadTokenizer();

function result(url: string, engine: string, relevance: number, status = "ok"): ResearchResult {
  return {
    url,
    title: url,
    engine,
    rank: 1,
    status,
    relevance,
    excerpts: status === "ok" ? [{ text: `About ${url}.`, score: relevance }] : [],
  } as ResearchResult;
}

function outcome(results: ResearchResult[]): ResearchOutcome {
  return {
    results,
    dropped: [],
    engine: "duckduckgo",
    attempts: [],
    totalAvailable: results.length,
    tokensUsed: 0,
    charsUsed: 0,
  };
}

const BUDGET = { perPage: 3000, total: 12_000 };

Deno.test("preferArchived() returns count pages, archived answers first, the rest dropped", () => {
  const web = outcome([
    result("https://w/1", "duckduckgo", 0.9),
    result("https://w/2", "duckduckgo", 0.8),
    result("https://w/3", "duckduckgo", 0.7),
    result("https://w/4", "duckduckgo", 0, "timeout"),
  ]);
  const archived = [result("/notes/report.md", "archive", 0.95)];
  for (const n of [1, 2, 3]) {
    const out = preferArchived(archived, web, BUDGET, n);
    const ok = out.results.filter((r) => r.status === "ok");
    assert.equal(ok.length, n);
    assert.equal(ok[0]!.url, "/notes/report.md");
    assert.ok(out.results.some((r) => r.status === "timeout"), "failures are still reported");
    assert.equal(out.dropped.length, 3 - (n - 1));
  }
});

Deno.test("preferArchived() leaves a page the web just read to the web", () => {
  const web = outcome([result("https://w/1", "duckduckgo", 0.6)]);
  const archived = [
    result("https://w/1", "archive", 0.99),
    result("/notes/report.md", "archive", 0.7),
  ];
  const out = preferArchived(archived, web, BUDGET, 1);
  assert.deepEqual(out.results.map((r) => r.url), ["/notes/report.md"]);
});
