import assert from "node:assert/strict";
import { createCache } from "../../../src/store/kv/cache.ts";
import { inputHash, normalizeInput } from "../../../src/store/kv/cache_key.ts";
import { withCache } from "../../../src/ops/with_cache.ts";
import type { Envelope } from "../../../src/envelope.ts";

const HOUR = 3_600_000;

async function withKv(fn: (kv: Deno.Kv, clock: { t: number }) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "quarry-cache-" });
  const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
  try {
    await fn(kv, { t: 1_000_000 });
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** A JSON value of about `bytes` bytes that does not compress into a pattern. */
function bigValue(bytes: number): { items: string[] } {
  const items: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const item = `item ${i} ${(i * 2654435761 % 4294967296).toString(36)} é ü 漢字`.repeat(4);
    items.push(item);
    size += item.length + 4;
  }
  return { items };
}

Deno.test("normalizeInput() ignores case, spaces, key order and presentation flags", async () => {
  assert.deepEqual(normalizeInput({ q: "  React  Hooks ", n: 5, force: true, json: true }), {
    n: 5,
    q: "react hooks",
  });
  assert.equal(
    await inputHash({ library: "React", query: "hooks", maxTokens: 100 }),
    await inputHash({ maxTokens: 100, query: " HOOKS", library: "react ", force: true }),
  );
  assert.notEqual(
    await inputHash({ query: "hooks", maxTokens: 100 }),
    await inputHash({ query: "hooks", maxTokens: 200 }),
  );
});

Deno.test("cache get() misses, then hits after set() for the same normalized input", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t });
    assert.equal(await cache.get("docs", { query: "a" }), undefined);
    assert.equal(await cache.set("docs", { query: "A " }, { answer: 42 }), true);
    const hit = await cache.get("docs", { query: "a" });
    assert.deepEqual(hit?.value, { answer: 42 });
    assert.equal(hit?.createdAt, clock.t);
    assert.equal(await cache.get("deep", { query: "a" }), undefined, "ops do not share entries");
  });
});

Deno.test("cache entries expire by the injected clock even before KV removes them", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t, ttlMs: 24 * HOUR });
    await cache.set("docs", { query: "a" }, 1);
    await cache.set("deep", { query: "a" }, 2, { ttlMs: 6 * HOUR });
    clock.t += 6 * HOUR;
    assert.equal(await cache.get("deep", { query: "a" }), undefined);
    assert.equal((await cache.get("docs", { query: "a" }))?.value, 1);
    clock.t += 18 * HOUR;
    assert.equal(await cache.get("docs", { query: "a" }), undefined);
    assert.deepEqual(await cache.stats(), { entries: 0, bytes: 0, expired: 2, ops: {} });
  });
});

Deno.test("cache splits a value over 64 KiB into chunks and reassembles it", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t });
    const value = bigValue(300_000);
    assert.equal(await cache.set("search", { query: "big" }, value), true);
    const chunks = [];
    for await (const e of kv.list({ prefix: ["cache", "search"] })) chunks.push(e);
    assert.ok(chunks.length > 5, `expected several chunk keys, got ${chunks.length}`);
    const stamps = new Set(chunks.map((e) => e.versionstamp));
    assert.equal(stamps.size, 1, "header and chunks are written in one atomic commit");
    assert.deepEqual((await cache.get("search", { query: "big" }))?.value, value);
  });
});

Deno.test("cache writes a value beyond one atomic commit in batches and still reads it", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t });
    const value = bigValue(2_000_000);
    assert.equal(await cache.set("search", { query: "huge" }, value), true);
    assert.deepEqual((await cache.get("search", { query: "huge" }))?.value, value);
    // Overwriting with a small value drops every old chunk.
    await cache.set("search", { query: "huge" }, "small");
    assert.equal((await cache.get("search", { query: "huge" }))?.value, "small");
    let keys = 0;
    for await (const _ of kv.list({ prefix: ["cache", "search"] })) keys++;
    assert.equal(keys, 1);
  });
});

Deno.test("cache refuses values over maxEntryBytes without failing", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t, maxEntryBytes: 1000 });
    assert.equal(await cache.set("search", { query: "x" }, bigValue(5000)), false);
    assert.equal(await cache.get("search", { query: "x" }), undefined);
  });
});

Deno.test("cache clear() removes one entry, one op's entries, or all", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t });
    await cache.set("docs", { query: "a" }, 1, { index: ["a"] });
    await cache.set("docs", { query: "b" }, bigValue(100_000), { index: ["b"] });
    await cache.set("deep", { query: "a" }, 3, { index: ["a"] });
    assert.equal(await cache.clear("docs", { query: "a" }), 1);
    assert.equal(await cache.get("docs", { query: "a" }), undefined);
    assert.equal((await cache.stats()).entries, 2);
    assert.equal(await cache.clear("docs"), 1);
    assert.equal((await cache.get("deep", { query: "a" }))?.value, 3);
    assert.equal(await cache.clear(), 1);
    let keys = 0;
    for await (const _ of kv.list({ prefix: [] })) keys++;
    assert.equal(keys, 0, "no chunk or index key is left behind");
  });
});

Deno.test("cache clearQuery() removes the entries of one query across ops", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t });
    await cache.set("docs", { library: "react", query: "Hooks" }, 1, { index: ["Hooks", "react"] });
    await cache.set("deep", { query: "hooks " }, 2, { index: ["hooks "] });
    await cache.set("deep", { query: "other" }, 3, { index: ["other"] });
    assert.equal(await cache.clearQuery("  HOOKS"), 2);
    assert.equal(await cache.get("docs", { library: "react", query: "hooks" }), undefined);
    assert.equal(await cache.get("deep", { query: "hooks" }), undefined);
    assert.equal((await cache.get("deep", { query: "other" }))?.value, 3);
    assert.equal(await cache.clearQuery("hooks"), 0);
  });
});

Deno.test("cache stats() counts live entries and their bytes per op", async () => {
  await withKv(async (kv, clock) => {
    const cache = createCache(kv, { now: () => clock.t });
    await cache.set("docs", { query: "a" }, "x");
    await cache.set("docs", { query: "b" }, bigValue(70_000));
    await cache.set("deep", { query: "a" }, [1, 2]);
    const stats = await cache.stats();
    assert.equal(stats.entries, 3);
    assert.equal(stats.ops.docs?.entries, 2);
    assert.equal(stats.ops.deep?.bytes, 5);
    assert.ok(stats.bytes > 70_000);
  });
});

Deno.test("withCache() stores successful envelopes only and marks cache_hit", async () => {
  await withKv(async (kv, clock) => {
    const lines: string[] = [];
    const ctx = {
      config: { cacheTtlMs: HOUR },
      now: () => clock.t,
      stores: { kv: () => Promise.resolve(kv) },
      progress: (l: string) => lines.push(l),
    };
    let calls = 0;
    const ok = (): Promise<Envelope> => {
      calls++;
      return Promise.resolve({ success: true, command: "t", results: [calls], metadata: {} });
    };
    const first = await withCache(ctx, "search", { query: "q" }, {}, ok);
    assert.equal(first.metadata?.cache_hit, false);
    const second = await withCache(ctx, "search", { query: "Q" }, {}, ok);
    assert.equal(second.metadata?.cache_hit, true);
    assert.deepEqual(second.results, [1]);
    const forced = await withCache(ctx, "search", { query: "q" }, { force: true }, ok);
    assert.deepEqual([forced.metadata?.cache_hit, forced.results], [false, [2]]);
    assert.deepEqual((await withCache(ctx, "search", { query: "q" }, {}, ok)).results, [2]);
    const skipped = await withCache(ctx, "search", { query: "q" }, { noCache: true }, ok);
    assert.deepEqual([skipped.metadata?.cache_hit, skipped.results], [false, [3]]);

    const fail = (): Promise<Envelope> =>
      Promise.resolve({
        success: false,
        command: "t",
        error: { code: "TIMEOUT", message: "slow", suggestions: [] },
      });
    await withCache(ctx, "search", { query: "f" }, {}, fail);
    assert.equal(
      (await withCache(ctx, "search", { query: "f" }, {}, ok)).metadata?.cache_hit,
      false,
    );
    clock.t += HOUR;
    assert.equal(
      (await withCache(ctx, "search", { query: "q" }, {}, ok)).metadata?.cache_hit,
      false,
    );
    assert.deepEqual(lines, []);
  });
});

Deno.test("withCache() still answers when the store cannot be opened", async () => {
  const lines: string[] = [];
  const ctx = {
    config: { cacheTtlMs: HOUR },
    now: () => 0,
    stores: { kv: () => Promise.reject(new Error("no store")) },
    progress: (l: string) => lines.push(l),
  };
  const env = await withCache(
    ctx,
    "search",
    { query: "q" },
    {},
    () => Promise.resolve<Envelope>({ success: true, command: "t", results: [], metadata: {} }),
  );
  assert.equal(env.success, true);
  assert.equal(env.metadata?.cache_error, "no store");
  assert.equal(lines.length, 1);
});
