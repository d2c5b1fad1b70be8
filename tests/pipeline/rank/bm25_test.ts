import assert from "node:assert/strict";
import {
  bm25Idf,
  buildBm25Index,
  DEFAULT_BM25_CONFIG,
  scoreBm25,
  searchBm25,
} from "../../../src/pipeline/rank/bm25.ts";

const DOCS = [
  ["cat", "sat", "mat"],
  ["dog", "chase", "cat", "cat"],
  ["dog", "bark"],
  ["bird", "sing", "tree", "morn", "song", "tree", "nest", "egg", "wing", "sky"],
];

Deno.test("searchBm25() returns only documents with a query term, best first", () => {
  const index = buildBm25Index(DOCS);
  const hits = searchBm25(index, ["cat"]);
  assert.deepEqual(hits.map((h) => h.doc), [1, 0]);
  assert.ok(hits[0]!.score > hits[1]!.score);
});

Deno.test("bm25() ranks a document with more distinct query terms above one with fewer", () => {
  const hits = searchBm25(buildBm25Index(DOCS), ["dog", "cat"]);
  assert.equal(hits[0]!.doc, 1);
});

Deno.test("bm25() gives a rare term more weight than a common one", () => {
  assert.ok(bm25Idf(100, 1) > bm25Idf(100, 50));
  assert.ok(bm25Idf(10, 10) > 0, "idf never goes negative");
});

Deno.test("bm25() with b = 0 ignores document length", () => {
  const docs = [["tree"], ["tree", "a", "b", "c", "d", "e", "f", "g"]];
  const flat = scoreBm25(buildBm25Index(docs, { b: 0 }), ["tree"]);
  assert.equal(flat[0], flat[1]);
  const norm = scoreBm25(buildBm25Index(docs, { b: 1 }), ["tree"]);
  assert.ok(norm[0]! > norm[1]!);
});

Deno.test("bm25() saturates term frequency with k1", () => {
  const docs = [["x", "y"], ["x", "x"], ["z", "w"]];
  const s = scoreBm25(buildBm25Index(docs, { k1: 1.2, b: 0 }), ["x"]);
  assert.ok(s[1]! > s[0]!);
  assert.ok(s[1]! < 2 * s[0]!);
  const zero = scoreBm25(buildBm25Index(docs, { k1: 0, b: 0 }), ["x"]);
  assert.equal(zero[0], zero[1]);
});

Deno.test("searchBm25() breaks ties with the given order and honours the limit", () => {
  const docs = [["a"], ["a"], ["a"]];
  const index = buildBm25Index(docs);
  assert.deepEqual(searchBm25(index, ["a"]).map((h) => h.doc), [0, 1, 2]);
  const desc = searchBm25(index, ["a"], { tieBreak: (x, y) => y - x, limit: 2 });
  assert.deepEqual(desc.map((h) => h.doc), [2, 1]);
});

Deno.test("buildBm25Index() rejects parameters out of range", () => {
  assert.throws(() => buildBm25Index(DOCS, { b: 1.5 }), RangeError);
  assert.throws(() => buildBm25Index(DOCS, { k1: -1 }), RangeError);
  assert.equal(buildBm25Index([]).docCount, 0);
  assert.deepEqual(buildBm25Index(DOCS).config, DEFAULT_BM25_CONFIG);
});

Deno.test("scoreBm25() counts a repeated query term more", () => {
  const index = buildBm25Index(DOCS);
  const once = scoreBm25(index, ["bird", "dog"]);
  const twice = scoreBm25(index, ["bird", "bird", "dog"]);
  assert.ok(twice[3]! > once[3]!);
  assert.equal(twice[2], once[2]);
});

Deno.test("searchBm25() with a small limit returns the same top hits as a full sort", () => {
  const docs = Array.from({ length: 300 }, (_, i) => {
    const d = ["x"];
    for (let j = 0; j < (i * 7) % 13; j++) d.push(j % 2 ? "y" : "pad");
    return d;
  });
  const index = buildBm25Index(docs);
  const full = searchBm25(index, ["x", "y"]);
  for (const limit of [0, 1, 5, 11, 100, 250]) {
    assert.deepEqual(searchBm25(index, ["x", "y"], { limit }), full.slice(0, limit));
  }
  const tie = (a: number, b: number) => b - a;
  assert.deepEqual(
    searchBm25(index, ["x"], { limit: 7, tieBreak: tie }),
    searchBm25(index, ["x"], { tieBreak: tie }).slice(0, 7),
  );
});
