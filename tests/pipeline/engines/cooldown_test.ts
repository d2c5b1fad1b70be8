import assert from "node:assert/strict";
import {
  awaitTurn,
  clearCooldown,
  readCooldown,
  writeCooldown,
} from "../../../src/pipeline/engines/cooldown.ts";

const T0 = Date.parse("2026-05-01T12:00:00Z");

async function withKvFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "quarry-cooldown-" });
  try {
    await fn(`${dir}/kv.sqlite3`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("readCooldown() trusts the stored end, not KV's lazy expiry", async () => {
  await withKvFile(async (path) => {
    const kv = await Deno.openKv(path);
    try {
      await writeCooldown(kv, "bing", { until: T0 + 1000, code: "CAPTCHA", message: "m" }, T0);
      assert.equal((await readCooldown(kv, "bing", T0 + 999))?.code, "CAPTCHA");
      assert.equal(await readCooldown(kv, "bing", T0 + 1000), undefined);
      await clearCooldown(kv, "bing");
      assert.equal(await readCooldown(kv, "bing", T0), undefined);
    } finally {
      kv.close();
    }
  });
});

Deno.test("awaitTurn() spaces two processes asking at the same moment", async () => {
  await withKvFile(async (path) => {
    const a = await Deno.openKv(path);
    const b = await Deno.openKv(path);
    try {
      const waits: number[] = [];
      const deps = (kv: Deno.Kv) => ({
        kv,
        now: () => T0,
        // Polite waits are skipped; the short lock back-offs really wait, as they must.
        sleep: (ms: number) => {
          waits.push(ms);
          return ms < 100 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve();
        },
      });
      const waited = await Promise.all([
        awaitTurn("duckduckgo", 1000, deps(a)),
        awaitTurn("duckduckgo", 1000, deps(b)),
      ]);
      assert.deepEqual(waited.sort((x, y) => x - y), [0, 1000]);
      // Besides the polite 1000 ms there may be short back-offs while the other handle held the lock.
      assert.ok(waits.includes(1000));
      assert.ok(waits.every((ms) => ms === 1000 || ms < 100), waits.join(","));
      // A third request queues behind both.
      assert.equal(await awaitTurn("duckduckgo", 1000, deps(a)), 2000);
      // Without a delay nothing is stored or awaited.
      assert.equal(await awaitTurn("bing", 0, deps(a)), 0);
      assert.equal((await a.get(["ratelimit", "bing"])).value, null);
    } finally {
      a.close();
      b.close();
    }
  });
});
