import assert from "node:assert/strict";
import { judgeQuality } from "../../src/pipeline/quality.ts";
import type { Article, Block } from "../../src/pipeline/types.ts";

function article(blocks: Block[], linkText = ""): Article {
  const text = blocks.map((b) => b.text).join("\n\n");
  return {
    title: "T",
    byline: null,
    site: null,
    lang: "en",
    published: null,
    excerpt: null,
    text,
    markdown: text,
    blocks,
    links: linkText ? [{ url: "https://a.test/", text: linkText }] : [],
  };
}

const SENTENCE = "Stone walls are built without mortar by fitting each stone carefully.";

Deno.test("judgeQuality() passes a page of real sentences", () => {
  const v = judgeQuality(article([1, 2, 3].map(() => ({ type: "p", text: SENTENCE }))));
  assert.equal(v.ok, true);
  assert.equal(v.sentences, 3);
});

Deno.test("judgeQuality() drops a page of fragments with the reason", () => {
  const v = judgeQuality(
    article(["Home", "About us", "Contact"].map((text) => ({ type: "li", text }))),
  );
  assert.equal(v.ok, false);
  assert.match(v.reason!, /only 0 real sentences/);
});

Deno.test("judgeQuality() drops a page that is mostly link text", () => {
  const blocks: Block[] = [1, 2, 3].map(() => ({ type: "p", text: SENTENCE }));
  const v = judgeQuality(article(blocks, "x".repeat(SENTENCE.length * 3)));
  assert.equal(v.ok, false);
  assert.match(v.reason!, /mostly links/);
});
