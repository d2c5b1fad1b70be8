import assert from "node:assert/strict";
import { parseQuery, planMatch, queryTokens } from "../../../src/store/archive/query.ts";
import { refineQuery, splitByFrequency } from "../../../src/store/archive/search.ts";

Deno.test("queryTokens() folds case and accents like the index tokenizer", () => {
  assert.deepEqual(queryTokens("Crème BRÛLÉE, naïve-café"), ["creme", "brulee", "naive", "cafe"]);
});

Deno.test("parseQuery() reads phrases, exclusions, OR groups and prefixes", () => {
  const q = parseQuery('"vitamin d" deficien* -mice NOT rats +bone fish OR chips');
  assert.deepEqual(q.must, [
    { kind: "term", tokens: ["vitamin", "d"], prefix: false },
    { kind: "term", tokens: ["bone"], prefix: false },
  ]);
  assert.deepEqual(q.not.map((n) => n.kind === "term" && n.tokens[0]), ["mice", "rats"]);
  assert.deepEqual(q.should, [
    { kind: "term", tokens: ["deficien"], prefix: true },
    {
      kind: "any",
      of: [
        { kind: "term", tokens: ["fish"], prefix: false },
        { kind: "term", tokens: ["chips"], prefix: false },
      ],
    },
  ]);
});

Deno.test("parseQuery() turns FTS5 syntax and SQL into plain words", () => {
  const q = parseQuery(`NEAR(a b, 2) col:x ^y "unclosed '; DROP TABLE t; --`);
  const words = [...q.should, ...q.must].flatMap((n) => n.kind === "term" ? n.tokens : []);
  assert.deepEqual(words, [
    "near",
    "a",
    "b",
    "2",
    "col",
    "x",
    "y",
    "unclosed",
    "drop",
    "table",
    "t",
  ]);
  const plan = planMatch(q)!;
  assert.ok(!plan.rank.includes(";") && !plan.rank.includes("'"));
});

Deno.test("planMatch() keeps ranking words optional next to required ones", () => {
  const plan = planMatch(parseQuery('"sea level" rise -storm'))!;
  assert.equal(plan.rank, '("sea level" AND ("rise" OR "\uE000")) NOT "storm"');
  assert.equal(plan.count, '("sea level") NOT "storm"');
  assert.equal(planMatch(parseQuery("a"), ["title"])!.rank, '({title} : "a")');
  assert.equal(planMatch(parseQuery("-only -negative")), undefined);
});

Deno.test("refineQuery() drops stop words and repeated stems, unless nothing is left", () => {
  const terms = (text: string) =>
    refineQuery(parseQuery(text)).should.flatMap((n) => n.kind === "term" ? n.tokens : []);
  assert.deepEqual(terms("the cells and a cell of the sea"), ["cells", "sea"]);
  assert.deepEqual(terms("the and of"), ["the", "and", "of"]);
});

Deno.test("splitByFrequency() selects rare terms within the budget and drops very common ones", () => {
  const df: Record<string, number> = { rare: 5, mid: 150, common: 400, everywhere: 900 };
  const stats = { docFreq: (t: string) => df[t] ?? 0, documents: () => 1000 };
  const split = splitByFrequency(parseQuery("everywhere common mid rare").should, stats, 200, 0.5);
  const words = (nodes: typeof split.select) =>
    nodes.flatMap((n) => n.kind === "term" ? n.tokens : []);
  assert.deepEqual(words(split.select), ["rare", "mid"]);
  assert.deepEqual(words(split.rankOnly), ["common"]);
});
