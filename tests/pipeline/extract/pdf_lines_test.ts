import assert from "node:assert/strict";
import {
  joinLine,
  type TextRun,
  toLines,
  toParagraphs,
} from "../../../src/pipeline/extract/pdf_lines.ts";
import { dropFurniture } from "../../../src/pipeline/extract/pdf_furniture.ts";

function run(str: string, x: number, y: number, size = 10, hasEOL = false): TextRun {
  return { str, transform: [size, 0, 0, size, x, y], height: size, hasEOL };
}

Deno.test("toLines() starts a new line when the baseline moves, even without an end-of-line mark", () => {
  const lines = toLines([run("Left ", 50, 700), run("half", 80, 700), run("Next line", 50, 688)]);
  assert.deepEqual(lines.map((l) => l.text), ["Left half", "Next line"]);
});

Deno.test("toParagraphs() breaks at wide gaps and size changes, joins close lines", () => {
  const lines = toLines([
    run("A heading", 50, 740, 18, true),
    run("first line of a", 50, 712, 10, true),
    run("paragraph goes on.", 50, 700, 10, true),
    run("A second paragraph.", 50, 676, 10, true),
  ]);
  assert.deepEqual(toParagraphs(lines).map((p) => p.text), [
    "A heading",
    "first line of a paragraph goes on.",
    "A second paragraph.",
  ]);
});

Deno.test("toParagraphs() keeps a two-line title together", () => {
  const lines = toLines([
    run("Trace-based Just-in-Time Type Specialization for Dynamic", 50, 740, 24, true),
    run("Languages", 50, 712, 24, true),
    run("Body text.", 50, 680, 10, true),
  ]);
  assert.equal(
    toParagraphs(lines)[0]!.text,
    "Trace-based Just-in-Time Type Specialization for Dynamic Languages",
  );
});

Deno.test("joinLine() joins hyphenated words but keeps real hyphens and capitals", () => {
  assert.equal(joinLine("a measure-", "ment"), "a measurement");
  assert.equal(joinLine("the Anglo-", "Saxon"), "the Anglo- Saxon");
  assert.equal(joinLine("pages 3 -", "5"), "pages 3 - 5");
  assert.equal(joinLine("", "first"), "first");
});

Deno.test("dropFurniture() drops lines repeated at page edges and page numbers, keeps the body", () => {
  const page = (n: number) => [
    { text: `Journal of Tides, vol. ${n}`, y: 780, x: 50, size: 8 },
    { text: `Body text unique to page ${"abcdef"[n]}`, y: 700, x: 50, size: 10 },
    { text: `— ${n} —`, y: 30, x: 300, size: 8 },
  ];
  const kept = dropFurniture([1, 2, 3, 4].map(page));
  assert.deepEqual(kept.map((lines) => lines.map((l) => l.text)), [
    ["Body text unique to page b"],
    ["Body text unique to page c"],
    ["Body text unique to page d"],
    ["Body text unique to page e"],
  ]);
});

Deno.test("dropFurniture() leaves short documents' edge lines alone unless they are page numbers", () => {
  const kept = dropFurniture([[{ text: "Memo", y: 700, x: 50, size: 10 }, {
    text: "2",
    y: 30,
    x: 300,
    size: 8,
  }]]);
  assert.deepEqual(kept[0]!.map((l) => l.text), ["Memo"]);
});

Deno.test("dropFurniture() takes roman page numbers for page numbers, but not words made of their letters", () => {
  const line = (text: string, y: number) => ({ text, y, x: 50, size: 10 });
  const kept = dropFurniture([[line("Civil", 760), line("Body", 400), line("xiv", 30)]]);
  assert.deepEqual(kept[0]!.map((l) => l.text), ["Civil", "Body"]);
});
