import assert from "node:assert/strict";
import type { Archive } from "../../../src/store/archive/archive.ts";
import { tempArchive, webDoc } from "./helpers.ts";

function seed(archive: Archive): string[] {
  return archive.upsertDocuments([
    webDoc(
      "https://ocean.org/tides",
      "Ocean tides",
      "The moon pulls the oceans and makes tides twice a day.",
    ),
    webDoc(
      "https://blog.ocean.org/waves",
      "Waves",
      "Wind makes waves; tides are slower than waves.",
      {
        publishedAt: "2023-06-01",
      },
    ),
    webDoc("https://space.net/moon", "The Moon", "The moon is Earth's only natural satellite.", {
      source: "research",
      type: "report",
      publishedAt: "2024-03-10T00:00:00Z",
    }),
    webDoc(
      "https://café.example/crème",
      "Crème brûlée",
      "A custard dessert with caramelised sugar.",
    ),
  ]).map((o) => o.id);
}

Deno.test("search() ranks a title match above a content match and highlights each field", async () => {
  const t = await tempArchive();
  try {
    const [tides, waves] = seed(t.archive);
    const result = t.archive.search("tides");
    assert.equal(result.total, 2);
    assert.deepEqual(result.hits.map((h) => h.id), [tides, waves]);
    assert.equal(result.hits[0]!.snippets.title, "Ocean **tides**");
    assert.match(result.hits[0]!.snippets.content!, /makes \*\*tides\*\*/);
    assert.equal(result.hits[1]!.snippets.title, undefined, "title did not match");
  } finally {
    await t.close();
  }
});

Deno.test("search() never fails on hostile input", async () => {
  const t = await tempArchive();
  try {
    seed(t.archive);
    const hostile = [
      '"',
      '"""',
      "NEAR(",
      "NEAR(moon tides, 2)",
      "*",
      "moon*",
      "'; DROP TABLE documents; --",
      "title:moon",
      "{title}: moon",
      "^moon",
      "(moon OR",
      "AND OR NOT",
      "-",
      "-moon",
      "",
      "   ",
      "moon ".repeat(2500),
      "x".repeat(10_000),
      "\u0000\uFFFF\uD800",
    ];
    for (const q of hostile) {
      const result = t.archive.search(q, { fuzzy: q.length < 100 });
      assert.ok(Array.isArray(result.hits), q.slice(0, 20));
    }
    assert.equal(t.archive.search("'; DROP TABLE documents; --").total, 0);
    assert.equal(t.archive.stats().documents, 4, "nothing was dropped");
    assert.ok(t.archive.search("NEAR(moon").total >= 2);
    assert.equal(t.archive.search("").hits.length, 4, "no words lists every document");
  } finally {
    await t.close();
  }
});

Deno.test("search() applies phrases, exclusions, OR and prefixes", async () => {
  const t = await tempArchive();
  try {
    const [tides, waves, moon, creme] = seed(t.archive);
    const ids = (q: string) => t.archive.search(q).hits.map((h) => h.id).sort();
    assert.deepEqual(ids('"natural satellite"'), [moon]);
    assert.deepEqual(ids('"satellite natural"'), []);
    assert.deepEqual(ids("tides -wind"), [tides]);
    assert.deepEqual(ids("moon NOT oceans"), [moon]);
    assert.deepEqual(ids('"custard" OR "satellite"'), [creme, moon].sort());
    assert.deepEqual(ids("satell*"), [moon]);
    assert.deepEqual(ids("+wind tides"), [waves]);
    assert.deepEqual(ids("creme brulee"), [creme], "accents are ignored");
  } finally {
    await t.close();
  }
});

Deno.test("search() filters by site, source, type, date and field, with paging", async () => {
  const t = await tempArchive();
  try {
    const [tides, waves, moon] = seed(t.archive);
    const ids = (q: string, o: Parameters<Archive["search"]>[1]) =>
      t.archive.search(q, o).hits.map((h) => h.id).sort();
    assert.deepEqual(ids("tides", { site: "ocean.org" }), [tides, waves].sort());
    assert.deepEqual(ids("tides", { site: "blog.ocean.org" }), [waves]);
    assert.deepEqual(ids("moon", { source: "research" }), [moon]);
    assert.deepEqual(ids("moon", { type: "report" }), [moon]);
    assert.deepEqual(ids("moon tides", { since: "2024-01-01", until: "2024-12-31" }), [moon]);
    assert.deepEqual(ids("moon tides", { since: "2025-01-01" }), [tides]);
    assert.deepEqual(ids("tides waves", { until: "2023-06-01" }), [waves]);
    assert.deepEqual(ids("moon", { fields: ["title"] }), [moon]);
    const page = t.archive.search("tides OR moon", { limit: 1, offset: 1 });
    assert.equal(page.hits.length, 1);
    assert.equal(page.total, 3);
    assert.throws(() => t.archive.search("moon", { since: "yesterday-ish" }), /date/);
  } finally {
    await t.close();
  }
});

Deno.test("search({fuzzy}) matches misspellings and substrings", async () => {
  const t = await tempArchive();
  try {
    const [, , moon, creme] = seed(t.archive);
    assert.equal(t.archive.search("satelite").total, 0);
    const typo = t.archive.search("satelite", { fuzzy: true });
    assert.deepEqual(typo.hits.map((h) => h.id), [moon]);
    assert.ok(typo.expansions.satelite?.length);
    assert.match(typo.hits[0]!.snippets.content!, /\*\*satellite\*\*/);
    assert.deepEqual(t.archive.search("carameli", { fuzzy: true }).hits.map((h) => h.id), [creme]);
    assert.equal(t.archive.search("zzzzqqq", { fuzzy: true }).total, 0);
  } finally {
    await t.close();
  }
});
