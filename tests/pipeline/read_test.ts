import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { extractBody } from "../../src/pipeline/extract/mod.ts";
import { createExtractPool } from "../../src/pipeline/extract/pool.ts";
import { extractFetched, extractOne, type PageRead, readPages } from "../../src/pipeline/read.ts";
import type { FetchResult } from "../../src/pipeline/types.ts";
import { configFromEnv } from "../../src/config.ts";
import { pageMemory } from "../../src/store/memory.ts";
import { storesFor } from "../../src/store/stores.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";

function fetched(url: string, body: string): FetchResult {
  return {
    url,
    finalUrl: url,
    status: "ok",
    body,
    contentType: "text/html",
    redirects: [],
    elapsedMs: 1,
  };
}

Deno.test("extractFetched() turns a page the extractor throws on into an empty page with a reason", () => {
  const page = extractFetched(fetched("https://a.test/", "<p>x</p>"), new Error("boom"));
  assert.equal(page.status, "empty");
  assert.match(page.reason!, /could not extract the page: boom/);
});

Deno.test("extractOne() keeps the page as a value when the worker pool fails on it", async () => {
  const good = "<html><body><article><h1>T</h1>" +
    "<p>A long enough paragraph of real text about stone walls and how they are built.</p>".repeat(
      5,
    ) +
    "</article></body></html>";
  const pool = {
    extract: (body: string | Uint8Array, url: string) =>
      url.endsWith("bad") ? Promise.reject(new Error("worker died")) : extractBody(body, url),
  };
  const pages = await Promise.all([
    extractOne(fetched("https://a.test/bad", "<p>bad</p>"), pool),
    extractOne(fetched("https://a.test/good", good), pool),
  ]);
  assert.deepEqual(pages.map((p) => p.status), ["empty", "ok"]);
  assert.match(pages[0]!.reason!, /worker died/);
});

Deno.test("extractFetched() passes a failed fetch through with its status and reason", () => {
  const page = extractFetched({
    url: "https://a.test/",
    finalUrl: "https://a.test/",
    status: "timeout",
    reason: "took too long",
    redirects: [],
    elapsedMs: 8000,
  });
  assert.equal(page.status, "timeout");
  assert.equal(page.reason, "took too long");
  assert.equal(page.extracted, undefined);
});

/** A real KV file and archive in a temp directory, and the loopback web. */
async function withMemory(
  fn: (
    read: (urls: string[]) => Promise<PageRead[]>,
    origin: string,
    home: string,
  ) => Promise<void>,
) {
  const web = await startFixtureWeb();
  const home = await Deno.makeTempDir({ prefix: "quarry-read-" });
  const stores = storesFor(configFromEnv({ QUARRY_HOME: home }));
  const deps = {
    fetch: globalThis.fetch.bind(globalThis),
    resolveDns: () => Promise.resolve(["127.0.0.1"]),
    now: Date.now,
    memory: pageMemory(stores),
  };
  const read = (urls: string[]) =>
    readPages(urls, { fetch: { allowPrivateNetwork: true, timeoutMs: 5000 } }, deps);
  try {
    await fn(read, web.origin, home);
  } finally {
    await stores.close();
    await web.close();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("readPages() reads a page answered with 304 exactly as it was first read", async () => {
  await withMemory(async (read, origin) => {
    const url = `${origin}/fault/etag?page=caching`;
    const [first] = await read([url]);
    assert.equal(first!.status, "ok");
    assert.equal(first!.revalidated, undefined);
    const [second] = await read([url]);
    assert.equal(second!.revalidated, true, "the server answered 304");
    assert.equal(second!.archiveId, first!.archiveId);
    const a = first!.extracted!.article;
    const b = second!.extracted!.article;
    assert.match(a.markdown, /^#+ /m, "the page has headings in Markdown");
    assert.match(a.markdown, /^\|.*\|$/m, "the page has a table in Markdown");
    assert.match(a.markdown, /^```/m, "the page has a code fence in Markdown");
    assert.ok(a.links.length > 0, "the page has links");
    assert.equal(a.site, "Webnotes");
    assert.deepEqual(b, a);
  });
});

Deno.test("readPages() hands each page on as it lands, slowest last, in the order of urls", async () => {
  await withMemory(async (_read, origin) => {
    const order: number[] = [];
    const urls = [`${origin}/fault/delay?ms=400`, `${origin}/pages/articles/http3.html`];
    const pages = await readPages(urls, {
      fetch: { allowPrivateNetwork: true, timeoutMs: 5000 },
      onPage: (_page, i) => order.push(i),
    }, {
      fetch: globalThis.fetch.bind(globalThis),
      resolveDns: () => Promise.resolve(["127.0.0.1"]),
      now: Date.now,
    });
    assert.deepEqual(order, [1, 0]);
    assert.deepEqual(pages.map((p) => p.fetch.url), urls);
  });
});

Deno.test("readPages() asks again without validators when the archive kept no page for a 304", async () => {
  await withMemory(async (read, origin, home) => {
    const url = `${origin}/fault/etag?page=caching`;
    const [first] = await read([url]);
    // An archive written before pages were kept: the document is there, its kept page is not.
    const db = new DatabaseSync(`${home}/archive.db`);
    db.exec("DELETE FROM document_pages");
    db.close();
    const [second] = await read([url]);
    assert.equal(second!.status, "ok");
    assert.equal(second!.revalidated, undefined, "read in full again");
    assert.deepEqual(second!.extracted!.article, first!.extracted!.article);
    const [third] = await read([url]);
    assert.equal(third!.revalidated, true, "the full read kept the page again");
  });
});

Deno.test("readPages() extracts in the worker pool when one is passed", async () => {
  const web = await startFixtureWeb();
  const pool = createExtractPool({ size: 1 });
  try {
    const urls = [
      `${web.origin}/pages/articles/http3.html`,
      `${web.origin}/pages/articles/http2.html`,
    ];
    const landed: string[] = [];
    const pages = await readPages(urls, {
      fetch: { allowPrivateNetwork: true, timeoutMs: 5000 },
      onPage: (page) => landed.push(`${page.status} ${page.extracted?.article.title}`),
    }, {
      fetch: globalThis.fetch.bind(globalThis),
      resolveDns: () => Promise.resolve(["127.0.0.1"]),
      now: Date.now,
      extract: pool.extract,
    });
    assert.deepEqual(pages.map((p) => p.status), ["ok", "ok"]);
    assert.equal(landed.length, 2, "each page was handed on");
    assert.ok(pages.every((p) => p.extracted?.extractor === "readability"));
  } finally {
    pool.close();
    await web.close();
  }
});
