/**
 * One contract, every engine: each backend is run against its fake on the
 * fixture web in every mode, and must give clean organic results, a coded
 * error for a block or a broken page, and an empty list only for a genuine
 * "no results".
 */
import assert from "node:assert/strict";
import { QuarryError } from "../../../src/errors.ts";
import { ENGINES } from "../../../src/pipeline/engines/mod.ts";
import { ENGINE_NAMES, type EngineName } from "../../../src/pipeline/engines/types.ts";
import { parseQuery } from "../../../src/pipeline/query.ts";
import { startFixtureWeb } from "../../support/fixture_web.ts";
import type { EngineMode } from "../../support/web/engines.ts";
import { fakeConfig, recordingDeps } from "./engine_deps.ts";

/** Engines that print a date next to the first fixture result. */
const DATED: ReadonlySet<EngineName> = new Set([
  "duckduckgo",
  "bing",
  "mojeek",
  "google",
  "searxng",
  "brave",
  "exa",
  "brave-html",
  "wikipedia",
]);

/** What the `captcha` mode of each fake turns into. */
const BLOCK_CODE: Readonly<Record<EngineName, string>> = {
  duckduckgo: "CAPTCHA",
  "duckduckgo-lite": "CAPTCHA",
  bing: "CAPTCHA",
  mojeek: "CAPTCHA",
  google: "CAPTCHA",
  searxng: "RATE_LIMITED",
  brave: "RATE_LIMITED",
  exa: "RATE_LIMITED",
  startpage: "CAPTCHA",
  "brave-html": "CAPTCHA",
  wikipedia: "RATE_LIMITED",
};

/** Engines whose fixture has a protocol-relative link (`//blog.example.net/…`). */
const PROTOCOL_RELATIVE: ReadonlySet<EngineName> = new Set([
  "duckduckgo",
  "duckduckgo-lite",
  "mojeek",
  "google",
]);

const QUERY = "deno kv";

/** The organic results every fake gives, in order. */
function organic(origin: string, name: EngineName): string[] {
  // Wikipedia's results are its own articles, named by title.
  if (name === "wikipedia") {
    return [
      "Deno_KV:_a_key-value_database_built_into_the_runtime",
      "Getting_started",
      "Annual_report_2024",
      "Hello,_World!",
      "About_Example",
    ].map((title) => `${origin}/wikipedia/wiki/${title}`);
  }
  // A protocol-relative link takes the scheme of the page it is on: http on the fixture web.
  const scheme = PROTOCOL_RELATIVE.has(name) ? new URL(origin).protocol : "https:";
  return [
    `${origin}/pages/articles/deno-kv.html`,
    "https://docs.example.com/guide/getting-started",
    "https://example.org/reports/annual-2024.pdf",
    `${scheme}//blog.example.net/posts/hello-world`,
    "https://www.example.com/about",
  ];
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<QuarryError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof QuarryError, `expected a QuarryError, got ${error}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}, but the search succeeded`);
}

for (const name of ENGINE_NAMES) {
  const engine = ENGINES[name];

  Deno.test(`${name}: contract against the fixture web`, async (t) => {
    const web = await startFixtureWeb();
    const run = (mode: EngineMode = "ok", env = {}) => {
      const deps = recordingDeps(fakeConfig(web.origin, { [name]: mode }, env));
      return { deps, result: engine.search(parseQuery(QUERY), { count: 10 }, deps) };
    };
    try {
      await t.step(
        "gives the organic results in order: ads dropped, links unwrapped, duplicates merged",
        async () => {
          const { deps, result } = run();
          const found = await result;
          assert.deepEqual(found.map((c) => c.url), organic(web.origin, name));
          assert.deepEqual(found.map((c) => c.rank), [1, 2, 3, 4, 5]);
          assert.ok(found.every((c) => c.engine === name && c.title.length > 0));
          assert.equal(found[0]!.title, "Deno KV: a key-value database built into the runtime");
          // The fake echoes the query it received into the first snippet.
          assert.match(found[0]!.snippet, /^Results for deno kv\. Deno KV stores values/);
          assert.equal(
            found[1]!.snippet,
            "Install the tool, open a database and write your first key.",
          );
          assert.equal(found[0]!.published, DATED.has(name) ? "2024-03-10" : undefined);
          assert.equal(deps.sent.length, 1);
        },
      );

      await t.step("reports its block page as a coded error, never as no results", async () => {
        await rejectsWith(run("captcha").result, BLOCK_CODE[name]);
      });

      await t.step("reports HTTP 429 as RATE_LIMITED with the Retry-After", async () => {
        const error = await rejectsWith(run("ratelimit").result, "RATE_LIMITED");
        assert.equal(error.retryAfter, 120);
      });

      await t.step("reports a page it cannot read as UPSTREAM_ERROR", async () => {
        await rejectsWith(run("malformed").result, "UPSTREAM_ERROR");
      });

      await t.step("reports a server error as UPSTREAM_ERROR", async () => {
        await rejectsWith(run("down").result, "UPSTREAM_ERROR");
      });

      await t.step("gives an empty list for a genuine no-results answer", async () => {
        assert.deepEqual(await run("empty").result, []);
      });

      await t.step("gives up with TIMEOUT when the engine does not answer in time", async () => {
        await rejectsWith(run("slow", { QUARRY_TIMEOUT: "150ms" }).result, "TIMEOUT");
      });

      await t.step("knows whether it is configured", () => {
        assert.equal(engine.available(fakeConfig(web.origin)), true);
        const bare = fakeConfig(web.origin, {}, {
          SEARXNG_URL: "",
          BRAVE_API_KEY: "",
          EXA_API_KEY: "",
        });
        const needsSetup = name === "searxng" || engine.needsKey !== undefined;
        assert.equal(typeof engine.available(bare), needsSetup ? "string" : "boolean");
      });
    } finally {
      await web.close();
    }
  });
}

Deno.test("google: the enable-JavaScript wall is a block", async () => {
  const web = await startFixtureWeb();
  try {
    const deps = recordingDeps(fakeConfig(web.origin, { google: "enablejs" }));
    await rejectsWith(ENGINES.google.search(parseQuery(QUERY), { count: 5 }, deps), "CAPTCHA");
  } finally {
    await web.close();
  }
});

Deno.test("searxng: a 403 on format=json says JSON output is not enabled", async () => {
  const web = await startFixtureWeb();
  try {
    const deps = recordingDeps(fakeConfig(web.origin, { searxng: "forbidden" }));
    const error = await rejectsWith(
      ENGINES.searxng.search(parseQuery(QUERY), { count: 5 }, deps),
      "UPSTREAM_ERROR",
    );
    assert.match(error.message, /JSON output is not enabled/);
    assert.ok(error.suggestions.some((s) => s.includes("search.formats")));
  } finally {
    await web.close();
  }
});

Deno.test("brave and exa: a key the API refuses is MISSING_API_KEY, not a block", async () => {
  const web = await startFixtureWeb();
  try {
    for (const name of ["brave", "exa"] as const) {
      const env = { BRAVE_API_KEY: "wrong", EXA_API_KEY: "wrong" };
      const deps = recordingDeps(fakeConfig(web.origin, {}, env));
      const error = await rejectsWith(
        ENGINES[name].search(parseQuery(QUERY), { count: 5 }, deps),
        "MISSING_API_KEY",
      );
      assert.match(error.message, name === "brave" ? /BRAVE_API_KEY/ : /EXA_API_KEY/);
    }
  } finally {
    await web.close();
  }
});
