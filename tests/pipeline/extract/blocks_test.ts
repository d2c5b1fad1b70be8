import assert from "node:assert/strict";
import { toBlocks, toSegments, toText } from "../../../src/pipeline/extract/blocks.ts";
import { parsePage } from "../../../src/pipeline/extract/prepare.ts";

const body = (html: string) =>
  parsePage(`<html><head></head><body>${html}</body></html>`, "https://x/", "https://x/").document
    .body;

Deno.test("toBlocks() types blocks by their nearest heading, list, cell, quote or pre", () => {
  const root = body(`<h2>Title <small>x</small></h2><p>Para  one
    spans lines.</p><ul><li>item <b>one</b></li><li><p>item two</p></li></ul>
    <blockquote><p>quote</p></blockquote><pre>  a
  b</pre><table><tr><td>c1</td><td>c2</td></tr></table><div>loose text</div>`);
  assert.deepEqual(toBlocks(toSegments(root)), [
    { type: "heading", level: 2, text: "Title x" },
    { type: "p", text: "Para one spans lines." },
    { type: "li", text: "item one" },
    { type: "li", text: "item two" },
    { type: "blockquote", text: "quote" },
    { type: "pre", text: "  a\n  b" },
    { type: "td", text: "c1" },
    { type: "td", text: "c2" },
    { type: "p", text: "loose text" },
  ]);
});

Deno.test("toText() separates paragraphs by blank lines, items by lines, cells by tabs", () => {
  const root = body(`<p>One.</p><p>Two<br>lines.</p><ol><li>a</li><li>b</li></ol>
    <table><tr><th>h1</th><th>h2</th></tr><tr><td>v1</td><td>v2</td></tr></table><p>End.</p>`);
  assert.equal(toText(toSegments(root)), "One.\n\nTwo\nlines.\n\na\nb\n\nh1\th2\nv1\tv2\n\nEnd.");
});

Deno.test("toSegments() skips scripts, styles, forms controls and svg text", () => {
  const root = body(
    `<p>kept<script>no()</script><svg><title>icon</title></svg><button>Click</button></p>`,
  );
  assert.equal(toText(toSegments(root)), "kept");
});
