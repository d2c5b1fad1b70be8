import assert from "node:assert/strict";
import { configFromEnv } from "../../src/config.ts";
import { realContext, withWorkers } from "../../src/front/context.ts";
import { extract } from "../../src/pipeline/extract/mod.ts";

const PAGE = await Deno.readTextFile(
  new URL("../../fixtures/pages/faces/dry-stone-walls.html", import.meta.url),
);
const URL_OF_PAGE = "https://fieldnotes.example/walls";

Deno.test("withWorkers() extracts in workers as extract() does inline, and close() ends them and the stores", async () => {
  const home = await Deno.makeTempDir({ prefix: "quarry-ctx-" });
  try {
    const { context, close } = withWorkers(realContext(configFromEnv({ QUARRY_HOME: home })));
    assert.ok(context.extract);
    await context.stores.kv();
    const results = await Promise.all([1, 2, 3].map(() => context.extract!(PAGE, URL_OF_PAGE, {})));
    for (const result of results) assert.deepEqual(result, extract(PAGE, URL_OF_PAGE, {}));
    await close();
    // Closed stores and ended workers leave no timers or handles behind (the test sanitizers check).
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("withWorkers() started no workers when nothing was extracted", async () => {
  const home = await Deno.makeTempDir({ prefix: "quarry-ctx-" });
  try {
    const { close } = withWorkers(realContext(configFromEnv({ QUARRY_HOME: home })));
    await close();
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
