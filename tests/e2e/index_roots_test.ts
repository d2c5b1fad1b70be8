import assert from "node:assert/strict";
import { startQuarryServer } from "../support/quarry_server.ts";
import { runQuarry } from "../support/run_quarry.ts";

const NOTES = new URL("../../fixtures/archive/notes/", import.meta.url).pathname;

async function index(origin: string, dirs: string[]) {
  const res = await fetch(`${origin}/archive/index`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ dirs }),
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("quarry serve indexes only under --index folders: /etc is 403 PERMISSION_DENIED", async () => {
  const server = await startQuarryServer(["--index", NOTES, "--index-every", "1h"]);
  try {
    const refused = await index(server.origin, ["/etc"]);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, "PERMISSION_DENIED");
    const allowed = await index(server.origin, [NOTES]);
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  } finally {
    await server.close();
  }
});

Deno.test("quarry serve without index roots refuses every folder", async () => {
  const server = await startQuarryServer();
  try {
    const refused = await index(server.origin, [NOTES]);
    assert.equal(refused.status, 403);
    assert.match(refused.body.error.suggestions.join(" "), /--index/);
  } finally {
    await server.close();
  }
});

Deno.test("quarry archive index /dev/zero is bad usage naming the path", async () => {
  const run = await runQuarry(["archive", "index", "/dev/zero"]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /BAD_INPUT.*\/dev\/zero/);
});
