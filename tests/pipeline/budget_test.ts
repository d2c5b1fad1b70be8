import assert from "node:assert/strict";
import { createByteBudget } from "../../src/pipeline/budget.ts";
import { fetchAll } from "../../src/pipeline/fetch.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";

const MB = 1024 * 1024;

Deno.test("createByteBudget() refuses what would pass its limit and takes back what is given", () => {
  const budget = createByteBudget(100);
  assert.equal(budget.take(60), true);
  assert.equal(budget.take(50), false);
  assert.equal(budget.used, 60);
  budget.give(60);
  assert.equal(budget.take(100), true);
});

Deno.test("fetchAll() shares one byte budget across its reads and gives every byte back", async () => {
  const web = await startFixtureWeb();
  try {
    const budget = createByteBudget(15 * MB);
    const urls = [1, 2, 3].map((n) => `${web.origin}/fault/huge?n=${n}`);
    const pages = await fetchAll(urls, { allowPrivateNetwork: true, maxBytes: 20 * MB }, {
      fetch,
      resolveDns: () => Promise.resolve(["127.0.0.1"]),
      now: Date.now,
      budget,
    });
    const cut = pages.filter((p) => p.status === "too_large");
    assert.ok(cut.length >= 2, JSON.stringify(pages.map((p) => p.status)));
    assert.match(cut[0]!.reason ?? "", /read at once/);
    assert.equal(budget.used, 0);
  } finally {
    await web.close();
  }
});
