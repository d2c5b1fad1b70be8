import assert from "node:assert/strict";
import { extractAll, extractFetched } from "../../src/pipeline/read.ts";
import type { FetchResult } from "../../src/pipeline/types.ts";

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

Deno.test("extractAll() keeps the batch when the worker pool fails on one page", async () => {
  const good = "<html><body><article><h1>T</h1>" +
    "<p>A long enough paragraph of real text about stone walls and how they are built.</p>".repeat(
      5,
    ) +
    "</article></body></html>";
  const pages = await extractAll(
    [fetched("https://a.test/bad", "<p>bad</p>"), fetched("https://a.test/good", good)],
    {
      extract: (body, url) =>
        url.endsWith("bad")
          ? Promise.reject(new Error("worker died"))
          : import("../../src/pipeline/extract/mod.ts").then((m) => m.extractBody(body, url)),
    },
  );
  assert.deepEqual(pages.map((p) => p.status), ["empty", "ok"]);
});

Deno.test("extractFetched() passes a failed fetch through with its status and reason", () => {
  const page = extractFetched({
    url: "https://a.test/",
    finalUrl: "https://a.test/",
    status: "timeout",
    reason: "Timed out",
    redirects: [],
    elapsedMs: 5,
  });
  assert.equal(page.status, "timeout");
  assert.equal(page.extracted, undefined);
});
