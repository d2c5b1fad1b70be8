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
