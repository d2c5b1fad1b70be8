import assert from "node:assert/strict";
import { textArticle } from "../../../src/pipeline/extract/text.ts";

Deno.test("textArticle() reads Markdown structure into blocks", () => {
  const a = textArticle(
    "# Title\n\nIntro line\ncontinues.\n\n1. first\n2. second\n\n```\ncode\n\nmore\n```\n",
    true,
  );
  assert.equal(a.title, "Title");
  assert.deepEqual(a.blocks, [
    { type: "heading", level: 1, text: "Title" },
    { type: "p", text: "Intro line continues." },
    { type: "li", text: "first" },
    { type: "li", text: "second" },
    { type: "pre", text: "code\n\nmore" },
  ]);
});

Deno.test("textArticle() takes plain text as paragraphs, title from the first line", () => {
  const a = textArticle("  \r\nNotes on X\r\n\r\n\r\n\r\nSecond para # not a heading\n", false);
  assert.equal(a.title, "Notes on X");
  assert.equal(a.text, "Notes on X\n\nSecond para # not a heading");
  assert.deepEqual(a.blocks.map((b) => b.type), ["p", "p"]);
});

Deno.test("textArticle() finds Markdown links and bare URLs", () => {
  const a = textArticle("See [the spec](https://a.example/spec) and https://b.example/x.", true);
  assert.deepEqual(a.links, [
    { url: "https://a.example/spec", text: "the spec" },
    { url: "https://b.example/x", text: "https://b.example/x" },
  ]);
});
