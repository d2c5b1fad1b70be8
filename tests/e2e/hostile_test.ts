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
    assert.match(byUrl.get(slow)?.reason ?? "", /longer than|no extraction worker was free/);
    assert.equal(byUrl.get(fine)?.status, "ok");
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch --timeout 600h and QUARRY_TIMEOUT=600h are bad usage, not instant timeouts", async () => {
  const flag = await runQuarry(["fetch", "https://example.com/", "--timeout", "600h"]);
  assert.equal(flag.code, 2, flag.stderr);
  assert.match(flag.stderr, /BAD_INPUT.*--timeout.*600h/);
  const env = await runQuarry(["fetch", "https://example.com/"], {
    env: { QUARRY_TIMEOUT: "600h" },
  });
  assert.equal(env.code, 2, env.stderr);
  assert.match(env.stderr, /QUARRY_TIMEOUT/);
});

Deno.test("quarry serve --port abc is bad usage; a port in use is named with a way out", async () => {
  const bad = await runQuarry(["serve", "--port", "abc"]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /"abc" is not a port/);
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    const busy = await runQuarry(["serve", "--port", String(port)]);
    assert.equal(busy.code, 2, busy.stderr);
    assert.match(busy.stderr, new RegExp(`Port ${port} is already in use`));
    assert.match(busy.stderr, /--port 0/);
    assert.doesNotMatch(busy.stderr, /INTERNAL/);
  } finally {
    taken.close();
  }
});
