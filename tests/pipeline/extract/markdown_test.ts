import assert from "node:assert/strict";
import { toMarkdown } from "../../../src/pipeline/extract/markdown.ts";
import { parsePage } from "../../../src/pipeline/extract/prepare.ts";

const md = (html: string) =>
  toMarkdown(
    parsePage(`<html><head></head><body>${html}</body></html>`, "https://x/", "https://x/").document
      .body,
  );

Deno.test("toMarkdown() writes ATX headings, one-space bullets and fenced code", () => {
  assert.equal(
    md(`<h2>Setup</h2><ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>
      <pre><code class="language-sh">npm i x</code></pre><pre>$ run\nok</pre>`),
    "## Setup\n\n- one\n- two\n\n3. three\n\n```sh\nnpm i x\n```\n\n```\n$ run\nok\n```",
  );
});

Deno.test("toMarkdown() renders data tables as pipe tables", () => {
  assert.equal(
    md(`<table><thead><tr><th>Key</th><th>Value</th></tr></thead>
      <tbody><tr><td>a|b</td><td>1</td></tr></tbody></table>`),
    "| Key | Value |\n| --- | --- |\n| a\\|b | 1 |",
  );
});

Deno.test("toMarkdown() leaves layout tables as paragraphs", () => {
  const out = md(
    `<table><tr><td><p>Left column text.</p><ul><li>x</li></ul></td><td>Right</td></tr></table>`,
  );
  assert.ok(!out.includes("| --- |"), out);
  assert.match(out, /Left column text\./);
});

Deno.test("toMarkdown() escapes Markdown but not underscores inside words", () => {
  assert.equal(
    md("<p>set max_segment_mb to *2* and _x</p>"),
    "set max_segment_mb to \\*2\\* and \\_x",
  );
});

Deno.test("toMarkdown() drops data: images but keeps their alt text", () => {
  assert.equal(md(`<p>logo <img alt="Acme" src="data:image/png;base64,AAAA"></p>`), "logo Acme");
});

Deno.test("toMarkdown() writes links without title tooltips and skips empty ones", () => {
  assert.equal(
    md(
      `<p><a href="https://a.example/x y" title="Tip">text</a> <a href="https://b.example/"> </a>end</p>`,
    ),
    "[text](<https://a.example/x y>) end",
  );
});
