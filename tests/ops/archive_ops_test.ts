import assert from "node:assert/strict";
import { configFromEnv } from "../../src/config.ts";
import { createHttpApp } from "../../src/front/http_app.ts";
import { sleep } from "../../src/front/context.ts";
import { OPERATIONS } from "../../src/ops/registry.ts";
import type { OpContext } from "../../src/ops/types.ts";
import { storesFor } from "../../src/store/stores.ts";

const BASE = "http://127.0.0.1:8080";
const NOTES = new URL("../../fixtures/archive/notes/", import.meta.url).pathname;

async function httpArchive() {
  const home = await Deno.makeTempDir({ prefix: "quarry-archive-ops-" });
  const config = configFromEnv({ QUARRY_HOME: home });
  const context: OpContext = {
    config,
    fetch: () => Promise.reject(new Error("no network in this test")),
    resolveDns: () => Promise.resolve(["127.0.0.1"]),
    now: () => Date.UTC(2025, 5, 1),
    sleep,
    random: () => 0.5,
    stores: storesFor(config),
    progress: () => {},
  };
  const app = createHttpApp({ ops: OPERATIONS, context });
  return {
    async call(path: string, init: RequestInit = {}) {
      const res = await app.fetch(new Request(`${BASE}${path}`, init));
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await context.stores.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("HTTP archive routes index, search, show, relate, count and export", async () => {
  const a = await httpArchive();
  try {
    const indexed = await a.call("/archive/index", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dirs: [NOTES] }),
    });
    assert.equal(indexed.status, 200, JSON.stringify(indexed.body));
    assert.equal(indexed.body.results[0].added, 4);

    const found = await a.call("/archive/search?q=kelp+urchins&limit=10");
    assert.equal(found.status, 200);
    assert.ok(found.body.metadata.total >= 2);
    const top = found.body.results[0];
    assert.equal(top.title, "Urchin barrens");
    assert.equal(top.rank, 1);

    const filtered = await a.call(
      "/archive/search?q=otters&source=file&fields=title&type=markdown",
    );
    assert.deepEqual(filtered.body.results.map((h: { title: string }) => h.title), [
      "Sea otters and their tools",
    ]);

    const shown = await a.call(`/archive/document?id=${top.id}`);
    assert.equal(shown.status, 200);
    assert.match(shown.body.results[0].content, /purple urchins/);
    assert.equal((await a.call("/archive/document?id=4242")).status, 404);
    const two = await a.call(`/archive/document?id=${encodeURIComponent(`${top.id} 4242`)}`);
    assert.equal(two.status, 400, "several ids are refused, not reported missing");
    assert.equal(two.body.error.code, "BAD_INPUT");
    assert.match(two.body.error.suggestions.join("\n"), new RegExp(`archive show ${top.id}`));

    const report = (await a.call("/archive/search?q=shellfish")).body.results[0];
    const related = await a.call(`/archive/related?id=${report.id}&depth=2`);
    assert.equal(related.status, 200);
    assert.ok(
      related.body.results.some((r: { url: string }) =>
        r.url === "https://journals.example/otter-tools"
      ),
    );

    const stats = await a.call("/archive/stats");
    assert.equal(stats.body.results[0].documents, 5);
    const graph = await a.call("/archive/graph?format=dot&external");
    assert.match(graph.body.results[0].content, /^digraph quarry \{/);

    assert.equal((await a.call("/archive/search?q=x&since=someday")).status, 400);
  } finally {
    await a.close();
  }
});

Deno.test("hostile archive queries over HTTP answer 200 with results or an empty list", async () => {
  const a = await httpArchive();
  try {
    await a.call("/archive/index", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dirs: [NOTES] }),
    });
    const hostile = [
      '"',
      "NEAR(",
      "*",
      "'; DROP TABLE documents; --",
      "x".repeat(10_000),
      "",
      "otters ".repeat(1500),
    ];
    for (const q of hostile) {
      const { status, body } = await a.call(`/archive/search?q=${encodeURIComponent(q)}&limit=10`);
      assert.equal(status, 200, `${q.slice(0, 20)}: ${JSON.stringify(body).slice(0, 200)}`);
      assert.equal(body.success, true);
      assert.ok(Array.isArray(body.results));
    }
    const stats = await a.call("/archive/stats");
    assert.equal(stats.body.results[0].documents, 5);
  } finally {
    await a.close();
  }
});
