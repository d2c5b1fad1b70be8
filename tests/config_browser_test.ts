import assert from "node:assert/strict";
import { configFromEnv } from "../src/config.ts";
import { QuarryError } from "../src/errors.ts";

Deno.test("configFromEnv() reads the browser: URL, tabs and render timeout, with defaults", () => {
  const none = configFromEnv({});
  assert.deepEqual(none.browser, { url: undefined, tabs: 4, timeoutMs: 15_000 });
  const set = configFromEnv({
    QUARRY_BROWSER_URL: "http://127.0.0.1:9222/",
    QUARRY_BROWSER_TABS: "2",
    QUARRY_BROWSER_TIMEOUT: "30s",
  });
  assert.deepEqual(set.browser, { url: "http://127.0.0.1:9222", tabs: 2, timeoutMs: 30_000 });
  assert.equal(configFromEnv({ QUARRY_BROWSER_URL: "ws://b:3000/x" }).browser.url, "ws://b:3000/x");
});

Deno.test("configFromEnv() refuses a tab count or browser URL it cannot use, with a hint", () => {
  for (
    const env of [
      { QUARRY_BROWSER_TABS: "0" },
      { QUARRY_BROWSER_TABS: "many" },
      { QUARRY_BROWSER_URL: "127.0.0.1:9222" },
    ]
  ) {
    assert.throws(() => configFromEnv(env), (e: unknown) => {
      assert.ok(e instanceof QuarryError);
      assert.equal(e.code, "BAD_INPUT");
      assert.ok(e.suggestions.length > 0);
      return true;
    });
  }
});
