import assert from "node:assert/strict";
import { boundMarkup, capLines } from "../../../src/pipeline/extract/bound.ts";
import { extract } from "../../../src/pipeline/extract/mod.ts";

function nested(depth: number, text = "words of the page ".repeat(30)): string {
  return "<html><body>" + "<div>".repeat(depth) + `<p>${text}</p>` + "</div>".repeat(depth) +
    "</body></html>";
}

Deno.test("boundMarkup() leaves markup within bounds as it is", () => {
  const html = nested(10);
  const bounded = boundMarkup(html, { maxDepth: 64 });
  assert.deepEqual(bounded, { ok: true, html, flattened: 0 });
});

Deno.test("boundMarkup() flattens elements past the depth bound and keeps their text", () => {
  const bounded = boundMarkup("<div><div><div><b>x</b> y</div></div></div>", { maxDepth: 2 });
  assert.ok(bounded.ok);
  assert.equal(bounded.flattened, 2);
  assert.equal(bounded.html, "<div><div>  x  y </div></div>");
});

Deno.test("boundMarkup() counts void and self-closing elements without nesting them", () => {
  const bounded = boundMarkup("<div>" + "<br><img src=x><span/>".repeat(100) + "</div>", {
    maxDepth: 2,
  });
  assert.ok(bounded.ok);
  assert.equal(bounded.flattened, 0);
});

Deno.test("boundMarkup() treats unclosed list items as siblings", () => {
  const bounded = boundMarkup("<ul>" + "<li>item".repeat(50) + "</ul>", { maxDepth: 3 });
  assert.ok(bounded.ok);
  assert.equal(bounded.flattened, 0);
});

Deno.test("boundMarkup() refuses markup with more elements than the bound", () => {
  assert.deepEqual(boundMarkup("<i>a</i>".repeat(11), { maxElements: 10 }), {
    ok: false,
    elements: 11,
  });
});

Deno.test("extract() reads a page nested 20,000 deep quickly, its text intact", () => {
  const started = performance.now();
  const result = extract(nested(20_000), "https://deep.example/");
  assert.equal(result.status, "ok");
  assert.match(result.article.text, /words of the page/);
  // A generous bound, not a benchmark: unbounded, this page does not finish in minutes.
  assert.ok(performance.now() - started < 30_000);
});

Deno.test("extract() says too_large for a page nested 100,000 deep", () => {
  assert.equal(extract(nested(100_000), "https://deep.example/").status, "too_large");
});

Deno.test("extract() says too_large for a page with more elements than the bound", () => {
  const result = extract("<p>x</p>".repeat(20), "https://big.example/", { maxElements: 10 });
  assert.equal(result.status, "too_large");
  assert.match(result.reason ?? "", /over 10 elements/);
});

Deno.test("capLines() breaks an over-long line at spaces and keeps every word", () => {
  const line = "word ".repeat(10_000);
  const capped = capLines(line, 1_000);
  assert.ok(capped.split("\n").every((l) => l.length <= 1_000));
  assert.equal(capped.replace(/\s+/g, " ").trim(), line.trim());
  assert.equal(capLines("short\nlines", 1_000), "short\nlines");
});

Deno.test("capLines() cuts a line without spaces at the bound", () => {
  assert.deepEqual(capLines("x".repeat(25), 10).split("\n").map((l) => l.length), [10, 10, 5]);
});
