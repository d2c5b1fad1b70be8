import assert from "node:assert/strict";
import { excerptsFor, pageBudget } from "../../../src/pipeline/rank/excerpts_for.ts";
import { countTokens, loadTokenizer } from "../../../src/text/tokens.ts";
import type { Article } from "../../../src/pipeline/types.ts";

// Ops load the tokenizer before they count; this test counts directly.
await loadTokenizer();

const TEXT = [
  "Granite walls last for centuries when their stones are laid dry and tight.",
  "A dry stone wall drains freely, so frost cannot lift its courses apart.",
  "Lime mortar was used where walls had to hold water back.",
  "Most field walls in the dales were built between 1750 and 1850.",
];

function article(): Article {
  const blocks = TEXT.map((text) => ({ type: "p" as const, text }));
  return {
    title: "Dry stone walls",
    byline: null,
    site: null,
    lang: "en",
    published: null,
    excerpt: null,
    text: TEXT.join("\n\n"),
    markdown: TEXT.join("\n\n"),
    blocks,
    links: [],
  };
}

Deno.test("pageBudget() shares the answer's tokens evenly, at least one token a page", () => {
  assert.deepEqual(pageBudget({ perPage: 3000, total: 12000 }, 4), { chars: 3000 });
  assert.deepEqual(pageBudget({ perPage: 3000, total: 12000, maxTokens: 1000 }, 3), {
    chars: 3000,
    tokens: 333,
  });
  assert.deepEqual(pageBudget({ perPage: 500, total: 12000, maxTokens: 2 }, 5), {
    chars: 500,
    tokens: 1,
  });
  assert.equal(pageBudget({ perPage: 1, total: 1, maxTokens: 10 }, 0).tokens, 10);
});

Deno.test("excerptsFor() keeps the passages that answer, within characters or tokens", () => {
  const wide = excerptsFor(
    article(),
    "why do dry stone walls survive frost",
    { chars: 3000 },
    "search",
  );
  assert.ok(wide.length > 0);
  assert.match(wide.map((e) => e.text).join(" "), /frost/);
  const narrow = excerptsFor(article(), "why do dry stone walls survive frost", {
    chars: 3000,
    tokens: 20,
  }, "strict");
  const tokens = narrow.reduce((n, e) => n + countTokens(e.text), 0);
  assert.ok(tokens <= 20, `${tokens} tokens`);
});
