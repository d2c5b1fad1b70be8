import assert from "node:assert/strict";
import {
  type IndexCounts,
  indexFolders,
  type IndexProgress,
  watchFolders,
} from "../../../src/store/archive/indexer.ts";
import { readFileDocuments, readMarkdown } from "../../../src/store/archive/indexer_files.ts";
import { tempArchive } from "./helpers.ts";
import { extract } from "../../../src/pipeline/extract/mod.ts";

const extractHtml = (html: string, url: string) => extract(html, url).article;

const NOW = Date.parse("2025-03-01T12:00:00Z");

async function writeTree(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/notes/deep`, { recursive: true });
  await Deno.mkdir(`${dir}/.git`);
  await Deno.writeTextFile(
    `${dir}/notes/tides.md`,
    "---\ntitle: Tide notes\ndate: 2024-02-03\n---\n\nThe moon drives tides, see [NOAA](https://noaa.gov/tides).\n",
  );
  await Deno.writeTextFile(`${dir}/notes/deep/plain.txt`, "Glaciers carve valleys slowly.\n");
  await Deno.writeTextFile(
    `${dir}/page.html`,
    `<html><head><title>Volcano page</title></head><body><article><h1>Volcanoes</h1>
     <p>${"Magma rises through the crust and erupts as lava. ".repeat(8)}</p>
     <p>Read <a href="https://usgs.gov/volcanoes">the survey</a> for more.</p></article></body></html>`,
  );
  await Deno.writeTextFile(
    `${dir}/saved.json`,
    JSON.stringify([
      {
        url: "https://a.example/reef",
        title: "Coral reefs",
        content: "Reefs bleach when seas warm.",
      },
      {
        url: "https://a.example/kelp",
        title: "Kelp forests",
        content: "Kelp grows fast in cold water.",
      },
    ]),
  );
  await Deno.writeTextFile(`${dir}/.git/ignored.md`, "# Hidden\n\nnever indexed");
  await Deno.writeTextFile(`${dir}/image.png`, "not text");
}

Deno.test("indexFolders() indexes Markdown, text, HTML and JSON, then only what changed", async () => {
  const t = await tempArchive();
  const dir = await Deno.makeTempDir({ prefix: "quarry_index_" });
  try {
    await writeTree(dir);
    const progress: IndexProgress[] = [];
    const deps = {
      archive: t.archive,
      extractHtml,
      now: () => NOW,
      progress: (p: IndexProgress) => progress.push(p),
    };
    const first = await indexFolders([dir], deps);
    assert.deepEqual(
      {
        added: first.added,
        updated: first.updated,
        removed: first.removed,
        unchanged: first.unchanged,
      },
      { added: 4, updated: 0, removed: 0, unchanged: 0 },
    );
    assert.equal(first.documents, 5, "the JSON list gave two documents");
    assert.deepEqual(progress.map((p) => p.done), [1, 2, 3, 4]);
    assert.equal(progress[3]!.total, 4);

    const hit = t.archive.search("moon tides").hits[0]!;
    assert.equal(hit.title, "Tide notes");
    assert.equal(hit.source, "file");
    assert.equal(hit.publishedAt, "2024-02-03T00:00:00.000Z");
    assert.equal(t.archive.search("magma").hits[0]?.title, "Volcano page");
    assert.equal(t.archive.search("kelp").hits[0]?.url, "https://a.example/kelp");
    assert.equal(t.archive.search("hidden").total, 0);
    assert.ok(t.archive.related(hit.id)!.related.some((r) => r.url === "https://noaa.gov/tides"));

    const again = await indexFolders([dir], deps);
    assert.equal(again.unchanged, 4);
    assert.equal(again.added + again.updated + again.removed, 0);

    await Deno.writeTextFile(`${dir}/notes/deep/plain.txt`, "Glaciers carve fjords and valleys.\n");
    await Deno.utime(`${dir}/notes/tides.md`, new Date(), new Date(NOW + 60_000));
    await Deno.writeTextFile(
      `${dir}/saved.json`,
      JSON.stringify([{
        url: "https://a.example/reef",
        title: "Coral reefs",
        content: "Reefs bleach.",
      }]),
    );
    await Deno.remove(`${dir}/page.html`);
    const changed = await indexFolders([dir], deps);
    assert.deepEqual(
      {
        added: changed.added,
        updated: changed.updated,
        removed: changed.removed,
        unchanged: changed.unchanged,
      },
      { added: 0, updated: 2, removed: 1, unchanged: 1 },
    );
    assert.equal(t.archive.search("fjords").total, 1);
    assert.equal(t.archive.search("magma").total, 0);
    assert.equal(t.archive.search("kelp").total, 0, "a page gone from the JSON list is removed");
    assert.equal(t.archive.stats().documents, 3);

    const forced = await indexFolders([dir], deps, { force: true });
    assert.equal(forced.unchanged, 3, "forced re-reads find the same text");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("indexFolders() reports a missing folder as NOT_FOUND", async () => {
  const t = await tempArchive();
  try {
    await assert.rejects(
      indexFolders([`${t.dir}/nope`], { archive: t.archive, extractHtml, now: () => NOW }),
      (e: unknown) => (e as { code?: string }).code === "NOT_FOUND",
    );
  } finally {
    await t.close();
  }
});

Deno.test("readMarkdown() takes the title from front matter or the first heading", () => {
  assert.deepEqual(readMarkdown("# Heading\n\nBody text.", "file"), {
    title: "Heading",
    date: undefined,
    body: "Body text.",
  });
  assert.equal(readMarkdown("No heading here.", "fallback").title, "fallback");
});

Deno.test("readFileDocuments() reads JSON saved pages in several shapes", () => {
  const opts = {
    source: "url-content" as const,
    indexedAt: "2025-01-01T00:00:00.000Z",
    extractHtml,
  };
  const one = readFileDocuments(
    "/x/one.json",
    JSON.stringify({ url: "https://a.org/", title: "A", text: "Body" }),
    opts,
  );
  assert.equal(one.length, 1);
  assert.equal(one[0]!.doc.path, "/x/one.json");
  assert.equal(one[0]!.doc.source, "url-content");
  const wrapped = readFileDocuments(
    "/x/many.json",
    JSON.stringify({
      results: [{ title: "B", content: "x" }, {
        title: "C",
        content: "<p>Some <b>html</b> text</p>",
      }],
    }),
    opts,
  );
  assert.deepEqual(wrapped.map((d) => d.doc.path), ["/x/many.json#0", "/x/many.json#1"]);
  assert.equal(readFileDocuments("/x/bad.json", "{not json", opts).length, 0);
});

Deno.test("watchFolders() re-indexes after a change until aborted", async () => {
  const t = await tempArchive();
  const dir = await Deno.makeTempDir({ prefix: "quarry_watch_" });
  try {
    await Deno.writeTextFile(`${dir}/a.md`, "# A\n\nFirst note.");
    const controller = new AbortController();
    const runs: IndexCounts[] = [];
    let changed: () => void = () => {};
    const secondRun = new Promise<void>((resolve) => changed = resolve);
    const watching = watchFolders([dir], { archive: t.archive, extractHtml, now: () => NOW }, {
      debounceMs: 50,
      signal: controller.signal,
      onIndexed: (counts) => {
        runs.push(counts);
        if (runs.length === 1) {
          Deno.writeTextFile(`${dir}/b.md`, "# B\n\nSecond note about otters.");
        } else if (counts.added > 0) changed();
      },
    });
    const timeout = new Promise<void>((_, reject) =>
      setTimeout(() => reject(new Error("no re-index")), 5000)
    );
    try {
      await Promise.race([secondRun, timeout]);
    } finally {
      controller.abort();
      await watching;
    }
    assert.equal(runs[0]!.added, 1);
    assert.equal(t.archive.search("otters").total, 1);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("indexFolders() turns relative links between indexed files into resolved citations", async () => {
  const t = await tempArchive();
  const dir = await Deno.makeTempDir({ prefix: "quarry_index_links_" });
  try {
    await Deno.mkdir(`${dir}/sub dir`);
    // a.md comes first in the walk, so its targets are not archived yet when it is read.
    await Deno.writeTextFile(
      `${dir}/a.md`,
      "# Alpha\n\nThe plan is in [the plan](b.md#goals). Details in [c](sub%20dir/c.md). " +
        "Also [the web](https://example.com/x) and [missing](nope.md).\n",
    );
    await Deno.writeTextFile(
      `${dir}/b.md`,
      "# Beta plan\n\nGoals and steps. Back to [a](./a.md).\n",
    );
    await Deno.writeTextFile(`${dir}/sub dir/c.md`, "# Gamma\n\nDetails.\n");
    await indexFolders([dir], { archive: t.archive, extractHtml, now: () => NOW });
    const a = t.archive.resolve(`${dir}/a.md`)!;
    const b = t.archive.resolve(`${dir}/b.md`)!;
    const c = t.archive.resolve(`${dir}/sub dir/c.md`)!;
    const cites = t.archive.related(a)!.related.filter((r) => r.relation === "cites");
    const ids = cites.map((r) => r.id);
    assert.ok(ids.includes(b), JSON.stringify(cites));
    assert.ok(ids.includes(c), JSON.stringify(cites));
    const plan = cites.find((r) => r.id === b)!;
    assert.match(plan.context, /The plan is in the plan/);
    assert.ok(cites.some((r) => r.url === "https://example.com/x"));
    const beta = t.archive.search("beta goals", { citations: true }).hits.find((h) => h.id === b)!;
    assert.deepEqual(
      beta.cites!.map((r) => r.id),
      [a],
      "a link to an already-indexed file resolves at once",
    );
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
