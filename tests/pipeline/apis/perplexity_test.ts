import assert from "node:assert/strict";
import { QuarryError } from "../../../src/errors.ts";
import { markersIn, parseCompletion, stripThink } from "../../../src/pipeline/apis/perplexity.ts";

function completion(content: unknown, extra: Record<string, unknown> = {}) {
  return { choices: [{ index: 0, message: { role: "assistant", content } }], ...extra };
}

Deno.test("stripThink() removes reasoning blocks, even one cut off before its end", () => {
  assert.equal(stripThink("<think>plan\nmore</think>\n\nAnswer [1]."), "Answer [1].");
  assert.equal(stripThink("A <THINK>x</THINK>B"), "A B");
  assert.equal(stripThink("Answer.\n<think>never closed"), "Answer.");
  assert.equal(stripThink("<think>only reasoning"), "");
});

Deno.test("markersIn() lists source numbers once, in order of use, ignoring links", () => {
  assert.deepEqual(markersIn("a [2][1] b [2] c [see](https://x) [3](https://y)"), [2, 1]);
});

Deno.test("parseCompletion() numbers citations and enriches them from search_results", () => {
  const parsed = parseCompletion(completion("<think>x</think>Text [1][2].", {
    model: "sonar-deep-research",
    citations: ["https://a.example/", "https://b.example/"],
    search_results: [{ url: "https://b.example/", title: "B", last_updated: "2026-01-02" }],
    usage: { total_tokens: 10, cost: { total: 1 } },
  }));
  assert.equal(parsed.answer, "Text [1][2].");
  assert.deepEqual(parsed.citations, [
    { index: 1, url: "https://a.example/", title: null, date: null, snippet: null },
    { index: 2, url: "https://b.example/", title: "B", date: "2026-01-02", snippet: null },
  ]);
  assert.deepEqual(parsed.usage, { total_tokens: 10 });
});

Deno.test("parseCompletion() falls back to search_results when citations are absent", () => {
  const parsed = parseCompletion(completion("T", {
    search_results: [{ url: "https://c.example/", title: "C" }, { title: "no url" }],
  }));
  assert.deepEqual(parsed.citations.map((c) => [c.index, c.url, c.title]), [
    [1, "https://c.example/", "C"],
  ]);
});

Deno.test("parseCompletion() rejects answers without content as UPSTREAM_ERROR", () => {
  for (const bad of [null, {}, { choices: [] }, completion(42), completion("")]) {
    assert.throws(
      () => parseCompletion(bad),
      (e) => e instanceof QuarryError && e.code === "UPSTREAM_ERROR",
    );
  }
});
