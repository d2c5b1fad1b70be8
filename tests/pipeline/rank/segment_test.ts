import assert from "node:assert/strict";
import type { Block } from "../../../src/pipeline/types.ts";
import { segmentBlocks, splitSentences } from "../../../src/pipeline/rank/segment.ts";

const BLOCKS: Block[] = [
  { type: "p", text: "Intro sentence one. Intro sentence two." },
  { type: "heading", level: 2, text: "Install" },
  { type: "p", text: "Download the archive. Unpack it." },
  { type: "heading", level: 3, text: "On Linux" },
  { type: "li", text: "Run make install." },
  { type: "pre", text: "make\nmake install. done. really\n" },
  { type: "heading", level: 2, text: "Usage" },
  { type: "p", text: "Call the tool." },
];

Deno.test("segmentBlocks() carries the heading path of each sentence", () => {
  const s = segmentBlocks(BLOCKS);
  assert.deepEqual(s.map((x) => x.headingPath), [
    [],
    [],
    ["Install"],
    ["Install"],
    ["Install", "On Linux"],
    ["Install", "On Linux"],
    ["Usage"],
  ]);
});

Deno.test("segmentBlocks() keeps pre blocks whole", () => {
  const pre = segmentBlocks(BLOCKS).filter((x) => x.blockType === "pre");
  assert.equal(pre.length, 1);
  assert.equal(pre[0]!.text, "make\nmake install. done. really");
});

Deno.test("segmentBlocks() numbers positions, blocks and sections", () => {
  const s = segmentBlocks(BLOCKS);
  assert.deepEqual(s.map((x) => x.position), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(s.map((x) => x.blockIndex), [0, 0, 2, 2, 4, 5, 7]);
  assert.deepEqual(s.map((x) => x.section), [0, 0, 1, 1, 2, 2, 3]);
  assert.deepEqual(s.map((x) => x.indexInSection), [0, 1, 0, 1, 0, 1, 0]);
  assert.deepEqual(s.map((x) => x.indexInBlock), [0, 1, 0, 1, 0, 0, 0]);
});

Deno.test("segmentBlocks() pops headings of the same or a deeper level", () => {
  const s = segmentBlocks([
    { type: "heading", level: 1, text: "A" },
    { type: "heading", level: 3, text: "B" },
    { type: "heading", level: 2, text: "C" },
    { type: "p", text: "Text." },
  ]);
  assert.deepEqual(s[0]!.headingPath, ["A", "C"]);
});

Deno.test("splitSentences() does not break after common abbreviations or initials", () => {
  assert.deepEqual(splitSentences("Ask Dr. Smith about it. J. R. R. Tolkien wrote it."), [
    "Ask Dr. Smith about it.",
    "J. R. R. Tolkien wrote it.",
  ]);
});

Deno.test("splitSentences() collapses whitespace and skips empty text", () => {
  assert.deepEqual(splitSentences("  One\n\n two.   Three. "), ["One two.", "Three."]);
  assert.deepEqual(splitSentences("   "), []);
});

Deno.test("splitSentences() cuts an overlong sentence at word boundaries", () => {
  const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
  const parts = splitSentences(long, { maxSentenceChars: 100 });
  assert.ok(parts.length > 5);
  for (const p of parts) assert.ok(p.length <= 100, p);
  assert.equal(parts.join(" "), long);
});

Deno.test("splitSentences() splits Chinese and Japanese sentences", () => {
  assert.equal(splitSentences("今天天气很好。我们去公园吧！").length, 2);
  assert.equal(splitSentences("東京は晴れです。大阪は雨です。").length, 2);
});
