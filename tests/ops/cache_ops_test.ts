import assert from "node:assert/strict";
import { configFromEnv } from "../../src/config.ts";
import { sleep } from "../../src/front/context.ts";
import { createHttpApp } from "../../src/front/http_app.ts";
import { OPERATIONS } from "../../src/ops/registry.ts";
import type { OpContext } from "../../src/ops/types.ts";
import { storesFor } from "../../src/store/stores.ts";

Deno.test("cache clear --op refuses an operation that has no cache, naming those that do", async () => {
  const home = await Deno.makeTempDir({ prefix: "quarry-cache-ops-" });
  const config = configFromEnv({ QUARRY_HOME: home });
  const context: OpContext = {
    config,
    fetch: () => Promise.reject(new Error("no network in this test")),
    resolveDns: () => Promise.resolve(["127.0.0.1"]),
    now: () => Date.UTC(2026, 0, 1),
    sleep,
    random: () => 0.5,
    stores: storesFor(config),
    progress: () => {},
  };
  const app = createHttpApp({ ops: OPERATIONS, context });
  try {
    const bad = await app.fetch(
      new Request("http://127.0.0.1:8080/cache?op=nosuchop", { method: "DELETE" }),
    );
    assert.equal(bad.status, 400);
    const body = await bad.json();
    assert.equal(body.error.code, "BAD_INPUT");
    assert.match(JSON.stringify(body.error), /search/);
    const good = await app.fetch(
      new Request("http://127.0.0.1:8080/cache?op=docs", { method: "DELETE" }),
    );
    assert.equal(good.status, 200);
    assert.equal((await good.json()).results[0].op, "docs");
  } finally {
    await context.stores.close();
    await Deno.remove(home, { recursive: true });
  }
});
