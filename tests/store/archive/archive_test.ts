import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Archive } from "../../../src/store/archive/archive.ts";
import { MIGRATIONS } from "../../../src/store/archive/schema.ts";
import { tempArchive, webDoc } from "./helpers.ts";

Deno.test("Archive.open() migrates once and reopening changes nothing", async () => {
  const t = await tempArchive();
  try {
    t.archive.upsertDocuments([webDoc("https://a.org/x", "Tides", "The moon pulls the sea.")]);
    t.archive.close();
    const again = Archive.open(t.path);
    assert.equal(again.stats().documents, 1);
    again.close();
    const db = new DatabaseSync(t.path);
    const row = db.prepare("PRAGMA user_version").get() as { user_version: number };
    const mode = db.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
    db.close();
    assert.equal(row.user_version, MIGRATIONS.length);
    assert.equal(mode.journal_mode, "wal");
    t.archive = Archive.open(t.path);
  } finally {
    await t.close();
  }
});

Deno.test("upsertDocuments() matches web pages by canonical URL and never duplicates", async () => {
  const t = await tempArchive();
  try {
    const [first] = t.archive.upsertDocuments([
      webDoc("https://Example.org/guide/?utm_source=x#top", "Guide", "How tides work."),
    ]);
    assert.equal(first?.status, "added");
    const [same] = t.archive.upsertDocuments([
      webDoc("https://example.org/guide", "Guide", "How tides work."),
    ]);
    assert.deepEqual(same, { id: first!.id, status: "unchanged" });
    const [changed] = t.archive.upsertDocuments([
      webDoc("https://example.org:443/guide", "Guide", "How tides and waves work."),
    ]);
    assert.deepEqual(changed, { id: first!.id, status: "updated" });
    assert.equal(t.archive.stats().documents, 1);
    assert.match(t.archive.get(first!.id)!.content, /waves/);
  } finally {
    await t.close();
  }
});

Deno.test("upsertDocuments() accumulates the queries a page was read for", async () => {
  const t = await tempArchive();
  try {
    const [a] = t.archive.upsertDocuments([
      webDoc("https://a.org/", "A", "text", { query: "tides" }),
    ]);
    const [b] = t.archive.upsertDocuments([
      webDoc("https://a.org/", "A", "text", { query: "moon" }),
    ]);
    const [c] = t.archive.upsertDocuments([
      webDoc("https://a.org/", "A", "text", { query: "moon" }),
    ]);
    assert.equal(a!.id, b!.id);
    assert.equal(b!.status, "updated");
    assert.equal(c!.status, "unchanged");
    assert.equal(t.archive.get(a!.id)!.query, "tides\nmoon");
    assert.equal(t.archive.search("moon", { fields: ["query"] }).total, 1);
  } finally {
    await t.close();
  }
});

Deno.test("upsertDocuments() matches files by path and rolls back a failed batch", async () => {
  const t = await tempArchive();
  try {
    const file = {
      ...webDoc("", "Notes", "alpha beta"),
      url: null,
      source: "file" as const,
      path: "/n/a.md",
    };
    const [a] = t.archive.upsertDocuments([file]);
    const [b] = t.archive.upsertDocuments([{ ...file, content: "alpha beta gamma" }]);
    assert.equal(a!.id, b!.id);
    assert.throws(() =>
      t.archive.upsertDocuments([
        { ...file, path: "/n/b.md" },
        { ...file, path: "/n/c.md", source: "bogus" as "file" },
      ])
    );
    assert.equal(t.archive.stats().documents, 1, "the whole batch was rolled back");
    assert.equal(t.archive.deleteByPath("/n/a.md"), true);
    assert.equal(t.archive.stats().documents, 0);
    assert.equal(t.archive.search("alpha").total, 0);
  } finally {
    await t.close();
  }
});

Deno.test("stats() counts documents by source and citations by kind", async () => {
  const t = await tempArchive();
  try {
    const [a, b] = t.archive.upsertDocuments([
      webDoc("https://a.org/", "A", "one"),
      webDoc("https://b.org/", "B", "two", { source: "research" }),
    ]);
    t.archive.addCitations([
      {
        sourceId: a!.id,
        targetUrl: "https://b.org",
        context: "see B",
        confidence: 1,
        kind: "link",
      },
      {
        sourceId: a!.id,
        targetUrl: "https://c.org/",
        context: "see C",
        confidence: 1,
        kind: "link",
      },
    ]);
    const stats = t.archive.stats();
    assert.deepEqual(stats.bySource, { research: 1, web: 1 });
    assert.deepEqual(stats.byKind, { link: 2 });
    assert.equal(stats.resolvedCitations, 1);
    assert.ok(stats.bytes > 0);
    assert.equal(t.archive.resolve("https://b.org/"), b!.id);
  } finally {
    await t.close();
  }
});

Deno.test("document ids are never reused after a delete", async () => {
  const t = await tempArchive();
  try {
    const file = (path: string) => ({
      ...webDoc("", "N", "text"),
      url: null,
      source: "file" as const,
      path,
    });
    const [a] = t.archive.upsertDocuments([file("/a.md")]);
    t.archive.deleteByPath("/a.md");
    const [b] = t.archive.upsertDocuments([file("/b.md")]);
    assert.notEqual(a!.id, b!.id);
    assert.equal(t.archive.get(a!.id), undefined);
  } finally {
    await t.close();
  }
});
