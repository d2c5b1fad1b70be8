import assert from "node:assert/strict";
import type { Article } from "../../../src/pipeline/types.ts";
import { archivePage } from "../../../src/store/archive/page.ts";
import { tempArchive } from "./helpers.ts";

function article(text: string): Article {
  return {
    title: "Tide tables",
    byline: "Ana",
    site: "Ocean Weekly",
    lang: "en",
    published: "2024-05-06T08:00:00Z",
    excerpt: null,
    text,
    markdown: `${text} Read [the NOAA tables](https://noaa.gov/tables?utm_source=q) today.`,
    blocks: [],
    links: [
      { url: "https://noaa.gov/tables?utm_source=q", text: "the NOAA tables" },
      { url: "https://ocean.example/tides#menu", text: "self" },
      { url: "mailto:ana@example.org", text: "mail" },
    ],
  };
}

Deno.test("archivePage() stores a page once, with its links as citations", async () => {
  const t = await tempArchive();
  try {
    const page = {
      url: "http://ocean.example/t",
      finalUrl: "https://ocean.example/tides",
      article: article("Tides rise twice a day."),
      query: "tide times",
      fetchedAt: "2025-02-01T00:00:00.000Z",
    };
    const id = archivePage(t.archive, page);
    assert.equal(archivePage(t.archive, page), id, "the same page keeps its id");
    const again = archivePage(t.archive, {
      ...page,
      article: article("Tides rise twice daily."),
      query: "moon",
    });
    assert.equal(again, id);
    const doc = t.archive.get(id)!;
    assert.equal(doc.source, "web");
    assert.equal(doc.site, "ocean.example");
    assert.equal(doc.metadata.site_name, "Ocean Weekly");
    assert.equal(doc.metadata.requested_url, "http://ocean.example/t");
    assert.equal(doc.query, "tide times\nmoon");
    assert.match(doc.content, /twice daily/);
    const related = t.archive.related(id)!.related;
    assert.deepEqual(related.map((r) => [r.url, r.kind, r.context]), [
      ["https://noaa.gov/tables", "link", "Read the NOAA tables today."],
    ]);
    assert.equal(t.archive.stats().documents, 1);
    assert.equal(t.archive.stats().citations, 1);
  } finally {
    await t.close();
  }
});
