import assert from "node:assert/strict";
import { blocksFromMarkdown, plainInline } from "../../../src/pipeline/extract/markdown_blocks.ts";

Deno.test("blocksFromMarkdown() gives headings, paragraphs, items, code, quotes and table rows in order", () => {
  const md = [
    "# Title",
    "",
    "First paragraph with a [link](https://a.test/) and **bold** text,",
    "continued on a second line.",
    "",
    "## Section",
    "",
    "- one item",
    "2. two item",
    "",
    "> quoted words",
    "",
    "```ts",
    "const x = 1;",
    "",
    "console.log(x);",
    "```",
    "",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
  ].join("\n");
  assert.deepEqual(blocksFromMarkdown(md), [
    { type: "heading", level: 1, text: "Title" },
    {
      type: "p",
      text: "First paragraph with a link and bold text, continued on a second line.",
    },
    { type: "heading", level: 2, text: "Section" },
    { type: "li", text: "one item" },
    { type: "li", text: "two item" },
    { type: "blockquote", text: "quoted words" },
    { type: "pre", text: "const x = 1;\n\nconsole.log(x);" },
    { type: "td", text: "a | b" },
    { type: "td", text: "1 | 2" },
  ]);
});

Deno.test("blocksFromMarkdown() reads setext headings and ignores blank input", () => {
  assert.deepEqual(blocksFromMarkdown("Big\n===\n\ntext here"), [
    { type: "heading", level: 1, text: "Big" },
    { type: "p", text: "text here" },
  ]);
  assert.deepEqual(blocksFromMarkdown("\n\n  \n"), []);
});

Deno.test("plainInline() keeps link text and drops emphasis and code marks", () => {
  assert.equal(plainInline("see `fetch()` and _this_ ![img](x.png)"), "see fetch() and this img");
});
