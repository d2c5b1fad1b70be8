import assert from "node:assert/strict";
import { configFromEnv } from "../../../src/config.ts";
import { QuarryError } from "../../../src/errors.ts";
import { openKv } from "../../../src/store/kv/kv.ts";

function hintsAboutKvUrl(error: unknown): boolean {
  return error instanceof QuarryError &&
    error.suggestions.some((s) => s.includes("QUARRY_KV_URL")) &&
    !error.suggestions.some((s) => s.includes("QUARRY_HOME"));
}

Deno.test("openKv() with a QUARRY_KV_URL that is not a URL hints at the KV URL", async () => {
  const config = configFromEnv({ QUARRY_HOME: "/nonexistent", QUARRY_KV_URL: "not a url" });
  await assert.rejects(openKv(config), (e: unknown) => {
    assert.equal((e as QuarryError).code, "BAD_INPUT");
    return hintsAboutKvUrl(e);
  });
});

Deno.test("openKv() with an unreachable QUARRY_KV_URL hints at the KV URL", async () => {
  const config = configFromEnv({ QUARRY_KV_URL: "http://127.0.0.1:1/connect" });
  await assert.rejects(async () => {
    const kv = await openKv(config);
    try {
      await kv.get(["probe"]);
    } finally {
      kv.close();
    }
  }, (e: unknown) => hintsAboutKvUrl(e));
});
