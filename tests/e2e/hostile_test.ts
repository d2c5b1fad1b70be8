import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { runQuarry } from "../support/run_quarry.ts";

interface Env {
  success: boolean;
  results: { url: string; status: string; reason?: string; content?: string }[];
}

Deno.test("quarry fetch bounds each page's extraction: deep pages flatten, slow ones end unreadable", async () => {
  const web = await startFixtureWeb();
  try {
    const deep = `${web.origin}/hostile/nested?depth=10000`;
    const deeper = `${web.origin}/hostile/nested?depth=100000`;
    const slow = `${web.origin}/hostile/elements?n=58000`;
    const fine = `${web.origin}/pages/articles/http3.html`;
    const run = await runQuarry(["fetch", deep, deeper, slow, fine, "--timeout", "2s", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const byUrl = new Map((run.json as Env).results.map((r) => [r.url, r]));
    assert.equal(byUrl.get(deep)?.status, "ok");
    assert.match(byUrl.get(deep)?.content ?? "", /Words a reader would want/);
    assert.equal(byUrl.get(deeper)?.status, "too_large");
    assert.match(byUrl.get(deeper)?.reason ?? "", /elements/);
    assert.equal(byUrl.get(slow)?.status, "unreadable");
    assert.match(byUrl.get(slow)?.reason ?? "", /longer than 2s/);
    assert.equal(byUrl.get(fine)?.status, "ok");
  } finally {
    await web.close();
  }
});
