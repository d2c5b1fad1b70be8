import assert from "node:assert/strict";
import { tempArchive, webDoc } from "./helpers.ts";

function seed(t: Awaited<ReturnType<typeof tempArchive>>) {
  return t.archive.upsertDocuments([
    webDoc("https://a.example/old", "Old page", "Tides and the moon.", {
      publishedAt: "2020-03-01T00:00:00.000Z",
      fetchedAt: "2026-01-03T00:00:00.000Z",
    }),
    {
      ...webDoc("", "notes.md", "Field notes on walls."),
      url: null,
      path: "/n/notes.md",
      source: "file",
      type: "markdown",
      fetchedAt: "2026-01-01T00:00:00.000Z",
    },
    {
      ...webDoc("", "plan.md", "A plan for the garden."),
      url: null,
      path: "/n/plan.md",
      source: "file",
      type: "markdown",
      fetchedAt: "2026-01-02T00:00:00.000Z",
    },
    webDoc("https://b.example/new", "New page", "Waves on the shore.", {
      publishedAt: "2025-12-01T00:00:00.000Z",
      fetchedAt: "2026-01-01T12:00:00.000Z",
    }),
  ]).map((o) => o.id);
}

Deno.test("search() without words lists the documents that pass the filters, newest first", async () => {
  const t = await tempArchive();
  try {
    const [old, notes, plan, recent] = seed(t);
    const files = t.archive.search("", { source: "file" });
    assert.deepEqual(files.hits.map((h) => h.id), [plan, notes]);
    assert.equal(files.total, 2);
    const since = t.archive.search("  ", { since: "2025-06-01" });
    assert.deepEqual(since.hits.map((h) => h.id), [plan, notes, recent]);
    assert.deepEqual(t.archive.search("", { type: "html" }).hits.map((h) => h.id), [recent, old]);
    const page = t.archive.search("", { limit: 2, offset: 2 });
    assert.equal(page.total, 4);
    assert.deepEqual(page.hits.map((h) => h.id), [recent, old]);
  } finally {
    await t.close();
  }
});

Deno.test("list() orders by when a document was read when asked", async () => {
  const t = await tempArchive();
  try {
    const [old, notes, plan, recent] = seed(t);
    const read = t.archive.list({ order: "read", limit: 10 });
    assert.deepEqual(read.hits.map((h) => h.id), [old, plan, recent, notes]);
    assert.equal(read.total, 4);
    assert.deepEqual(t.archive.list({ order: "read", limit: 1, offset: 3 }).hits.map((h) => h.id), [
      notes,
    ]);
  } finally {
    await t.close();
  }
});
