/**
 * One contract for every EngineHealth store: the in-memory one the unit
 * tests use and the Deno KV one the program uses (on a real KV file, with a
 * second handle standing in for another process).
 */
import assert from "node:assert/strict";
import {
  afterBlock,
  afterSuccess,
  coolingUntil,
  DEFAULT_PACING,
  type EngineHealth,
  memoryHealth,
} from "../../../src/pipeline/engines/health.ts";
import { kvHealth } from "../../../src/store/kv/health.ts";

const T0 = Date.parse("2026-05-01T12:00:00Z");

interface Store {
  /** The store, and another view on the same records (another process for KV). */
  open(): Promise<{ a: EngineHealth; b: EngineHealth; close(): Promise<void> }>;
}

const STORES: Record<string, Store> = {
  memory: {
    open() {
      const health = memoryHealth();
      return Promise.resolve({ a: health, b: health, close: () => Promise.resolve() });
    },
  },
  kv: {
    async open() {
      const dir = await Deno.makeTempDir({ prefix: "quarry-health-" });
      const ka = await Deno.openKv(`${dir}/kv.sqlite3`);
      const kb = await Deno.openKv(`${dir}/kv.sqlite3`);
      return {
        a: kvHealth(ka),
        b: kvHealth(kb),
        async close() {
          ka.close();
          kb.close();
          await Deno.remove(dir, { recursive: true });
        },
      };
    },
  },
};

for (const [name, store] of Object.entries(STORES)) {
  Deno.test(`EngineHealth (${name}): contract`, async (t) => {
    const { a, b, close } = await store.open();
    try {
      await t.step("knows nothing of an engine never asked", async () => {
        assert.equal(await a.get("bing"), undefined);
      });

      await t.step("keeps a block and its cool-down where the other side reads it", async () => {
        const block = { code: "CAPTCHA" as const, message: "challenge" };
        await a.update("bing", (old) => afterBlock(old, block, T0, DEFAULT_PACING));
        const seen = await b.get("bing");
        assert.equal(seen?.blocks, 1);
        assert.equal(coolingUntil(seen, T0 + 59_999), T0 + 60_000);
        assert.equal(coolingUntil(seen, T0 + 60_000), undefined);
      });

      await t.step("loses no update when both sides write at once", async () => {
        await Promise.all(
          Array.from(
            { length: 10 },
            (_, i) => (i % 2 ? a : b).update("mojeek", (old) => afterSuccess(old, 100)),
          ),
        );
        assert.equal((await a.get("mojeek"))?.successes, 10);
      });

      await t.step("hands out request slots spaced by the interval, from either side", async () => {
        const slots = await Promise.all([
          a.reserve("duckduckgo", 1000, T0),
          b.reserve("duckduckgo", 1000, T0),
          a.reserve("duckduckgo", 1000, T0),
        ]);
        assert.deepEqual(slots.sort((x, y) => x - y), [T0, T0 + 1000, T0 + 2000]);
        // Another engine has its own slots.
        assert.equal(await b.reserve("bing", 1000, T0), T0);
      });
    } finally {
      await close();
    }
  });
}
