import assert from "node:assert/strict";
import { CATALOG } from "../../src/ops/catalog.ts";
import { OPERATIONS } from "../../src/ops/registry.ts";

Deno.test("the catalog lists every registry operation, in order, as its op file defines it", async () => {
  assert.deepEqual(
    CATALOG.map((e) => e.command.join(" ")),
    OPERATIONS.map((op) => op.command.join(" ")),
    "add the op to src/ops/catalog.ts in the registry's order",
  );
  for (const entry of CATALOG) {
    const op = await entry.load();
    const name = entry.command.join(" ");
    assert.equal(op, OPERATIONS.find((o) => o.command.join(" ") === name), name);
    assert.deepEqual(entry.command, op.command, name);
    assert.equal(entry.summary, op.summary, `${name}: summary differs from the op's`);
  }
});
