import assert from "node:assert/strict";
import { cacheNote, humanAge } from "../../src/render/markdown.ts";

Deno.test("cacheNote() says a cached answer's age and how to refresh it", () => {
  const note = cacheNote({
    success: true,
    command: "search",
    results: [],
    metadata: { cache_hit: true, cached_at: "2026-01-01T10:00:00.000Z", cache_age_ms: 3 * 3.6e6 },
  });
  assert.equal(
    note,
    "\n_From the cache (3 h old, cached 2026-01-01T10:00:00.000Z); --force asks again._\n",
  );
  assert.equal(
    cacheNote({ success: true, command: "search", results: [], metadata: { cache_hit: false } }),
    "",
  );
});

Deno.test("humanAge() picks the largest unit that reads well", () => {
  assert.equal(humanAge(4_000), "4 s");
  assert.equal(humanAge(12 * 60_000), "12 min");
  assert.equal(humanAge(5 * 3_600_000), "5 h");
  assert.equal(humanAge(3 * 86_400_000), "3 days");
});
