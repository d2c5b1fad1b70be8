import assert from "node:assert/strict";
import { extract } from "../../../src/pipeline/extract/mod.ts";
import { createExtractPool } from "../../../src/pipeline/extract/pool.ts";

const PAGE = await Deno.readTextFile(
  new URL("../../../fixtures/pages/faces/dry-stone-walls.html", import.meta.url),
);
const URL_OF_PAGE = "https://fieldnotes.example/walls";

Deno.test("createExtractPool() extracts in workers exactly as extract() does inline", async () => {
  const pool = createExtractPool({ size: 2 });
  try {
    const inline = extract(PAGE, URL_OF_PAGE, {});
    const results = await Promise.all(
      Array.from({ length: 5 }, () => pool.extract(PAGE, URL_OF_PAGE, {})),
    );
    for (const result of results) assert.deepEqual(result, inline);
    assert.equal(results[0]!.article.byline, "Ada Whitlock");
  } finally {
    pool.close();
  }
});

Deno.test("a closed pool still extracts, inline", async () => {
  const pool = createExtractPool({ size: 1 });
  pool.close();
  const result = await pool.extract("plain words here", URL_OF_PAGE, { contentType: "text/plain" });
  assert.equal(
    result.article.text,
    extract("plain words here", URL_OF_PAGE, {
      contentType: "text/plain",
    }).article.text,
  );
});

Deno.test("a pool whose worker cannot start extracts inline instead of failing", async () => {
  const pool = createExtractPool({
    size: 1,
    // A worker module that fails as it loads, like one missing from a compiled binary.
    workerUrl: new URL("data:application/javascript,throw new Error('no worker here')"),
  });
  try {
    const results = await Promise.all([
      pool.extract(PAGE, URL_OF_PAGE, {}),
      pool.extract(PAGE, URL_OF_PAGE, {}),
    ]);
    for (const result of results) assert.deepEqual(result, extract(PAGE, URL_OF_PAGE, {}));
  } finally {
    pool.close();
  }
});

/** A page the parser cannot finish in any reasonable time once the depth bound is lifted. */
const STUCK = "<html><body>" + "<div>".repeat(6_000) + "deep words ".repeat(40) + "</body></html>";

Deno.test("a page that overruns its time comes back unreadable and its worker is replaced", async () => {
  const pool = createExtractPool({ size: 1, timeoutMs: 1_500 });
  try {
    const started = performance.now();
    const stuck = await pool.extract(STUCK, URL_OF_PAGE, { maxDepth: 1_000_000 });
    const after = await pool.extract(PAGE, URL_OF_PAGE, {}, { timeoutMs: 60_000 });
    assert.equal(stuck.status, "unreadable");
    assert.match(stuck.reason ?? "", /longer than 1\.5s/);
    // The stuck page ended at its bound, not when the parser gave up.
    assert.ok(performance.now() - started < 20_000);
    assert.deepEqual(after, extract(PAGE, URL_OF_PAGE, {}));
  } finally {
    pool.close();
  }
});

Deno.test("closing a pool answers the page in flight and stops its worker", async () => {
  const pool = createExtractPool({ size: 1, timeoutMs: 60_000 });
  const pending = pool.extract(STUCK, URL_OF_PAGE, { maxDepth: 1_000_000 });
  await new Promise((r) => setTimeout(r, 300));
  pool.close();
  const result = await pending;
  assert.equal(result.status, "unreadable");
  assert.match(result.reason ?? "", /stopping/);
});

Deno.test("a cancelled read frees its worker at once", async () => {
  const pool = createExtractPool({ size: 1, timeoutMs: 60_000 });
  try {
    const cancel = new AbortController();
    const pending = pool.extract(STUCK, URL_OF_PAGE, { maxDepth: 1_000_000 }, {
      signal: cancel.signal,
    });
    setTimeout(() => cancel.abort(), 200);
    assert.equal((await pending).status, "unreadable");
    const next = await pool.extract(PAGE, URL_OF_PAGE, {});
    assert.equal(next.status, "ok");
  } finally {
    pool.close();
  }
});

Deno.test("a page waiting behind a stuck one ends within its own time", async () => {
  const pool = createExtractPool({ size: 1, timeoutMs: 60_000 });
  try {
    await pool.extract(PAGE, URL_OF_PAGE, {}); // a loaded worker
    const stuck = pool.extract(STUCK, URL_OF_PAGE, { maxDepth: 1_000_000 }, { timeoutMs: 3_000 });
    const waiting = await pool.extract(PAGE, URL_OF_PAGE, {}, { timeoutMs: 500 });
    assert.equal(waiting.status, "unreadable");
    assert.match(waiting.reason ?? "", /no extraction worker was free within 0\.5s/);
    assert.equal((await stuck).status, "unreadable");
  } finally {
    pool.close();
  }
});
