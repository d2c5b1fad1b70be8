import assert from "node:assert/strict";
import { batchError, type FetchedPage } from "../../src/ops/fetch.ts";

function page(status: FetchedPage["status"], reason = ""): FetchedPage {
  return { url: `https://example.com/${status}`, final_url: "", status, reason };
}

Deno.test("batchError() hints at --timeout only when a page timed out", () => {
  const timedOut = batchError([page("timeout", "Timed out after 8000 ms")]);
  assert.ok(timedOut.suggestions.some((s) => s.includes("--timeout")));
  for (const status of ["private_address", "not_html", "http_error", "blocked"] as const) {
    const error = batchError([page(status)]);
    assert.ok(!error.suggestions.some((s) => s.includes("--timeout")), status);
    assert.ok(error.suggestions.length > 0, status);
  }
});

Deno.test("batchError() points a private address at QUARRY_ALLOW_PRIVATE_NETWORK", () => {
  const error = batchError([page("private_address", "Resolves to 10.0.0.8")]);
  assert.equal(error.code, "PERMISSION_DENIED");
  assert.match(error.suggestions.join("\n"), /QUARRY_ALLOW_PRIVATE_NETWORK=1/);
});

Deno.test("batchError() says which types are read when a page is not HTML", () => {
  const error = batchError([page("not_html", "Not a web page: image/png")]);
  assert.match(error.suggestions.join("\n"), /text\/html/);
  assert.match(error.suggestions.join("\n"), /text\/markdown/);
});

Deno.test("batchError() gives each hint once for a batch of mixed failures", () => {
  const error = batchError([page("timeout"), page("timeout"), page("private_address")]);
  assert.equal(error.suggestions.length, 2);
});
