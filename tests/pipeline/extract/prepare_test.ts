import assert from "node:assert/strict";
import {
  baseUrlOf,
  countScripts,
  parsePage,
  stripInert,
} from "../../../src/pipeline/extract/prepare.ts";

Deno.test("stripInert() removes scripts, styles and comments but keeps JSON-LD", () => {
  const html = `<p>a</p><script>x()</script><style>p{}</style><!-- note -->` +
    `<script type="application/ld+json">{"@type":"Article"}</script><p>b</p>`;
  assert.equal(
    stripInert(html),
    `<p>a</p><script type="application/ld+json">{"@type":"Article"}</script><p>b</p>`,
  );
});

Deno.test("stripInert() does not let a <script> inside a comment swallow content", () => {
  assert.equal(stripInert("<!-- <script> --><p>kept</p><script>y()</script>"), "<p>kept</p>");
});

Deno.test("stripInert() ends a script at an end tag that carries junk before its >", () => {
  const html = `<script src="a.js"></script\n  <!-- plugin --><p>kept</p>`;
  assert.equal(stripInert(html), "<p>kept</p>");
});

Deno.test("countScripts() counts script tags", () => {
  assert.equal(countScripts('<script src="a"></script><div></div><script>b</script>'), 2);
  assert.equal(countScripts("<p>none</p>"), 0);
});

Deno.test("baseUrlOf() resolves <base href> against the page URL", () => {
  assert.equal(
    baseUrlOf('<head><base href="/docs/v2/"></head>', "https://x.example/a/b"),
    "https://x.example/docs/v2/",
  );
  assert.equal(baseUrlOf("<p>no base</p>", "https://x.example/a/b"), "https://x.example/a/b");
  assert.equal(
    baseUrlOf('<base href="http://[bad">', "https://x.example/a"),
    "https://x.example/a",
  );
});

Deno.test("parsePage() builds html/head/body for fragments as a browser would", () => {
  const { document } = parsePage(
    "<title>T</title><p>one</p>text",
    "https://x.example/",
    "https://x.example/",
  );
  assert.equal(document.title, "T");
  assert.equal(document.body.textContent, "onetext");
  assert.equal(document.documentElement.localName, "html");
});

Deno.test("parsePage() gives the document its URL for Readability", () => {
  const { document } = parsePage(
    "<html><head></head><body></body></html>",
    "https://x.example/p",
    "https://x.example/base/",
  );
  assert.equal(document.documentURI, "https://x.example/p");
  assert.equal(document.baseURI, "https://x.example/base/");
});

Deno.test("stripInert() removes inline SVG, self-closing or not, and nothing after it", () => {
  assert.equal(
    stripInert('<p>a<svg viewBox="0 0 1 1"/>b</p><svg><path d="M0"/></svg><p>c</p></svg>'),
    "<p>ab</p><p>c</p></svg>",
  );
});
