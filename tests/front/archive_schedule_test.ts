import assert from "node:assert/strict";
import { configFromEnv } from "../../src/config.ts";
import { archiveIndexExtension } from "../../src/front/archive_schedule.ts";
import type { OpContext } from "../../src/ops/types.ts";
import { storesFor } from "../../src/store/stores.ts";

Deno.test("serve --index re-indexes on schedule until shutdown", async () => {
  const home = await Deno.makeTempDir({ prefix: "quarry-schedule-" });
  const dir = `${home}/notes`;
  await Deno.mkdir(dir);
  await Deno.writeTextFile(`${dir}/a.md`, "# A\n\nAlpine lakes freeze.");
  const config = configFromEnv({ QUARRY_HOME: home });
  const stop = new AbortController();
  const sleeps: number[] = [];
  const lines: string[] = [];
  const ctx: OpContext = {
    config,
    fetch: () => Promise.reject(new Error("offline")),
    resolveDns: () => Promise.resolve([]),
    now: () => 0,
    // Each "hour" passes at once: add a file after the first, stop after the second.
    sleep: async (ms) => {
      sleeps.push(ms);
      if (sleeps.length === 1) await Deno.writeTextFile(`${dir}/b.md`, "# B\n\nBoreal bogs.");
      else stop.abort();
    },
    random: () => 0.5,
    stores: storesFor(config),
    progress: () => {},
  };
  try {
    const extension = archiveIndexExtension((line) => lines.push(line));
    assert.deepEqual(extension.options.map((o) => o.long), ["--index", "--index-every"]);
    await extension.start(ctx, { index: [dir], indexEvery: "2h" }, stop.signal);
    assert.deepEqual(sleeps, [7_200_000, 7_200_000]);
    assert.deepEqual(lines, [
      "archive index: 1 added, 0 updated, 0 removed, 0 unchanged",
      "archive index: 1 added, 0 updated, 0 removed, 1 unchanged",
    ]);
    assert.equal((await ctx.stores.archive()).search("boreal").total, 1);
  } finally {
    await ctx.stores.close();
    await Deno.remove(home, { recursive: true });
  }
});
