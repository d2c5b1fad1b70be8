import assert from "node:assert/strict";
import type { Block } from "../../../src/pipeline/types.ts";
import { rankExcerpts, resolveExcerptConfig } from "../../../src/pipeline/rank/excerpts.ts";
import { countTokens } from "../../../src/pipeline/rank/tokens.ts";
import { loadTokenizer } from "../../../src/text/tokens.ts";

await loadTokenizer();

/** Filler prose that matches no test query. */
function filler(n: number, topic = "harbour"): string {
  return Array.from(
    { length: n },
    (_, i) => `The ${topic} wall number ${i} was repaired by the town council last spring.`,
  ).join(" ");
}

const PAGE: Block[] = [
  { type: "p", text: `Skerrow is a small fishing village. ${filler(6)}` },
  { type: "heading", level: 2, text: "Lighthouse" },
  {
    type: "p",
    text:
      "The lighthouse was completed in 1871. A spiral staircase of 187 steps leads to the lantern. " +
      "It was automated in 1989.",
  },
  { type: "p", text: filler(8, "pier") },
  { type: "heading", level: 2, text: "Ferry" },
  {
    type: "p",
    text: `The ferry to the island leaves twice a day from the pier. ${filler(4, "quay")}`,
  },
  { type: "heading", level: 2, text: "Comments" },
  { type: "p", text: "I climbed the lighthouse staircase and counted 200 steps, not 187!" },
];

const total = (ex: { text: string }[]) => ex.reduce((n, e) => n + e.text.length, 0);

Deno.test("rankExcerpts() finds the passage that answers the query", () => {
  const ex = rankExcerpts(PAGE, "how many steps does the lighthouse staircase have", {
    budgetChars: 300,
  });
  assert.ok(ex.some((e) => e.text.includes("187 steps")), JSON.stringify(ex));
});

Deno.test("rankExcerpts() carries the heading path of each excerpt", () => {
  const ex = rankExcerpts(PAGE, "ferry island", { budgetChars: 400 });
  const ferry = ex.find((e) => e.text.includes("ferry"));
  assert.deepEqual(ferry?.heading, ["Ferry"]);
});

Deno.test("rankExcerpts() penalizes meta sections such as comments", () => {
  const ex = rankExcerpts(PAGE, "lighthouse staircase steps", {
    mode: "strict",
    budgetChars: 3000,
  });
  assert.ok(ex.length > 0);
  assert.ok(!ex.some((e) => e.text.includes("counted 200 steps")), JSON.stringify(ex));
  assert.ok(!ex.some((e) => e.heading.includes("Comments")));
});

Deno.test("rankExcerpts() never exceeds the character budget", () => {
  for (const budget of [50, 120, 200, 500, 1000, 3000]) {
    for (const mode of ["search", "strict"] as const) {
      for (const q of ["lighthouse steps", "harbour wall council", "pier", "nothing matches"]) {
        const ex = rankExcerpts(PAGE, q, { budgetChars: budget, mode });
        assert.ok(total(ex) <= budget, `${budget} ${mode} ${q}: ${total(ex)}`);
      }
    }
  }
});

Deno.test("rankExcerpts() keeps a token budget exactly, counted with gpt-tokenizer", () => {
  for (const max of [20, 60, 150, 400]) {
    const ex = rankExcerpts(PAGE, "harbour wall repaired council", {
      mode: "strict",
      budgetChars: 100_000,
      tokenBudget: { max, count: countTokens },
    });
    const used = ex.reduce((n, e) => n + countTokens(e.text), 0);
    assert.ok(used <= max, `${used} > ${max}`);
    assert.ok(used > max / 2, `strict mode fills the budget: ${used} of ${max}`);
  }
});

Deno.test("rankExcerpts() drops duplicate passages", () => {
  const quote = "The mayor said the new lighthouse lens can be seen from forty kilometres away.";
  const blocks: Block[] = [
    { type: "p", text: `${filler(3)} ${quote} ${filler(3, "quay")}` },
    { type: "blockquote", text: quote },
    { type: "p", text: filler(5, "pier") },
    { type: "p", text: quote },
  ];
  const ex = rankExcerpts(blocks, "lighthouse lens distance seen", {
    mode: "strict",
    budgetChars: 3000,
  });
  const copies = ex.filter((e) => e.text.includes("forty kilometres")).length;
  assert.equal(copies, 1, JSON.stringify(ex, null, 1));
});

Deno.test("rankExcerpts() takes anchors from several paragraphs, not all from one", () => {
  const blocks: Block[] = [
    {
      type: "p",
      text:
        "Otters eat fish. Otters eat crabs. Otters eat frogs. Otters eat eggs. Otters eat birds.",
    },
    { type: "p", text: filler(10) },
    { type: "p", text: "Young otters eat what their mother brings back to the holt." },
  ];
  const ex = rankExcerpts(blocks, "what do otters eat", { budgetChars: 400 });
  assert.ok(ex.some((e) => e.text.includes("Young otters")), JSON.stringify(ex));
});

Deno.test("rankExcerpts() grows context only within the anchor's section", () => {
  const blocks: Block[] = [
    { type: "heading", level: 2, text: "A" },
    { type: "p", text: "Alpha one. The zebra answer sits here." },
    { type: "heading", level: 2, text: "B" },
    { type: "p", text: "Beta sentence after the heading. Beta two." },
  ];
  const ex = rankExcerpts(blocks, "zebra answer", { mode: "strict", budgetChars: 3000 });
  assert.equal(ex.length, 1);
  assert.equal(ex[0]!.text, "Alpha one. The zebra answer sits here.");
  assert.deepEqual(ex[0]!.heading, ["A"]);
});

Deno.test("rankExcerpts() returns document order by default and score order on request", () => {
  const blocks: Block[] = [
    { type: "p", text: "Kestrels hover. " + filler(3) },
    { type: "p", text: filler(6, "pier") },
    {
      type: "p",
      text: "Kestrels hover over fields and hunt voles from the air. " + filler(3, "quay"),
    },
  ];
  const opts = { mode: "search" as const, budgetChars: 3000 };
  const doc = rankExcerpts(blocks, "kestrels hunt voles", opts);
  assert.ok(doc.length >= 2);
  assert.ok(doc[0]!.text.startsWith("Kestrels hover."));
  const byScore = rankExcerpts(blocks, "kestrels hunt voles", { ...opts, order: "score" });
  assert.ok(byScore[0]!.text.includes("voles"));
  for (let i = 1; i < byScore.length; i++) assert.ok(byScore[i - 1]!.score >= byScore[i]!.score);
});

Deno.test("rankExcerpts() returns the page's opening when nothing matches", () => {
  const ex = rankExcerpts(PAGE, "quantum chromodynamics", { budgetChars: 200 });
  assert.equal(ex.length, 1);
  assert.ok(ex[0]!.text.startsWith("Skerrow is a small fishing village."));
  const empty = rankExcerpts(PAGE, "", { budgetChars: 200 });
  assert.ok(empty[0]!.text.startsWith("Skerrow"));
});

Deno.test("rankExcerpts() in strict mode spends more of the budget than search mode", () => {
  const search = rankExcerpts(PAGE, "lighthouse automated", { budgetChars: 2000 });
  const strict = rankExcerpts(PAGE, "lighthouse automated", { mode: "strict", budgetChars: 2000 });
  assert.ok(total(strict) > total(search), `${total(strict)} vs ${total(search)}`);
});

Deno.test("rankExcerpts() cuts an oversized sentence at a word with an ellipsis", () => {
  const long = `The glacier ${"moves slowly downhill and ".repeat(40)}ends in the sea.`;
  const ex = rankExcerpts([{ type: "p", text: long }], "glacier", {
    budgetChars: 200,
    segment: { locale: "en", maxSentenceChars: 5000, maxPreChars: 1200 },
  });
  assert.equal(ex.length, 1);
  assert.ok(ex[0]!.text.length <= 200);
  assert.ok(ex[0]!.text.endsWith("…"));
  assert.ok(ex[0]!.text.startsWith("The glacier moves"));
});

Deno.test("rankExcerpts() returns nothing for a page without text", () => {
  assert.deepEqual(rankExcerpts([], "anything"), []);
  assert.deepEqual(
    rankExcerpts([{ type: "heading", level: 1, text: "Only a title" }], "title"),
    [],
  );
});

Deno.test("rankExcerpts() ranks Japanese text", () => {
  const blocks: Block[] = [
    { type: "p", text: "大阪は雨です。明日も雨でしょう。" },
    { type: "p", text: "東京タワーの高さは333メートルです。東京の天気は晴れです。" },
  ];
  const ex = rankExcerpts(blocks, "東京タワーの高さ", { budgetChars: 30 });
  assert.ok(ex.some((e) => e.text.includes("333")), JSON.stringify(ex));
});

Deno.test("rankExcerpts() quotes a long preformatted block in pieces", () => {
  const para = (i: number) => `    Section ${i}. ${"The protocol text continues here. ".repeat(8)}`;
  const rfc = Array.from({ length: 12 }, (_, i) => para(i)).join("\n\n") +
    "\n\n    A conditional request whose version differs fails with 412 Precondition Failed.";
  const ex = rankExcerpts([{ type: "pre", text: rfc }], "version differs 412", {
    budgetChars: 400,
  });
  assert.ok(ex.some((e) => e.text.includes("412 Precondition Failed")), JSON.stringify(ex));
});

Deno.test("resolveExcerptConfig() applies the mode preset under explicit options", () => {
  assert.equal(resolveExcerptConfig({ mode: "strict" }).fill, true);
  assert.equal(resolveExcerptConfig({}).fill, false);
  assert.equal(resolveExcerptConfig({ mode: "strict", maxAnchors: 2 }).maxAnchors, 2);
  assert.equal(resolveExcerptConfig({ budgetChars: undefined }).budgetChars, 3000);
});

Deno.test("rankExcerpts() discounts query words the page title already names", () => {
  const blocks: Block[] = [
    { type: "p", text: "Otters are wonderful animals and otters love to play with other otters." },
    { type: "p", text: filler(6) },
    { type: "p", text: "Their diet is mostly fish, with some crabs and frogs." },
  ];
  const opts = { budgetChars: 80, title: "Otters" };
  const ex = rankExcerpts(blocks, "otter diet", opts);
  assert.ok(ex[0]?.text.includes("diet"), JSON.stringify(ex));
});
