import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { quarryCommand, runQuarry, tempHome } from "../support/run_quarry.ts";
import { openTabs, testBrowser } from "../support/browser.ts";

const browser = await testBrowser();
const ignore = browser === undefined;

interface Page {
  url: string;
  status: string;
  reason?: string;
  title?: string;
  content?: string;
  rendered?: boolean;
  excerpts?: { text: string }[];
}
interface Env {
  success: boolean;
  results: Page[];
  error?: { code: string; message: string; suggestions: string[] };
}

Deno.test({
  name: "quarry fetch renders a JavaScript page with a browser and says it did",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    try {
      const url = `${web.origin}/js/shell?topic=ospreys`;
      const run = await runQuarry(["fetch", url, "--json"], {
        env: { QUARRY_BROWSER_URL: browser!.url },
      });
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const page = (run.json as Env).results[0]!;
      assert.equal(page.status, "ok");
      assert.equal(page.rendered, true);
      assert.equal(page.title, "Field notes on ospreys");
      assert.match(page.content!, /counted 412 nesting pairs/);
      const never = await runQuarry(["fetch", url, "--json", "--render", "never"], {
        env: { QUARRY_BROWSER_URL: browser!.url },
      });
      assert.equal((never.json as Env).results[0]!.status, "empty");
      assert.equal((never.json as Env).results[0]!.rendered, undefined);
    } finally {
      await web.close();
    }
  },
});

Deno.test("quarry fetch without a browser says how to configure one", async () => {
  const web = await startFixtureWeb();
  try {
    const url = `${web.origin}/js/shell?topic=ospreys`;
    const run = await runQuarry(["fetch", url, "--json"]);
    assert.equal(run.code, 1);
    const page = (run.json as Env).results[0]!;
    assert.equal(page.status, "empty");
    assert.match(page.reason!, /QUARRY_BROWSER_URL/);
    const always = await runQuarry(["fetch", url, "--json", "--render", "always"]);
    assert.equal(always.code, 2);
    assert.equal((always.json as Env).error?.code, "BAD_INPUT");
    assert.ok(!web.requests.some((r) => r.startsWith("/js/app.js")), "no browser ran the page");
  } finally {
    await web.close();
  }
});

Deno.test({
  name: "quarry search reads JavaScript pages through the browser and answers from them",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    try {
      const run = await runQuarry(
        ["search", "how many osprey pairs nested", "--json", "-n", "2", "--timeout", "5s"],
        {
          env: {
            QUARRY_DDG_URL: `${web.origin}/js/serp`,
            QUARRY_ENGINES: "duckduckgo",
            QUARRY_BROWSER_URL: browser!.url,
          },
        },
      );
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const results = (run.json as Env).results;
      const osprey = results.find((r) => r.url.includes("ospreys"));
      assert.equal(osprey?.status, "ok", JSON.stringify(results));
      assert.equal(osprey?.rendered, true);
      assert.match(osprey!.excerpts!.map((e) => e.text).join(" "), /412 nesting pairs/);
    } finally {
      await web.close();
    }
  },
});

Deno.test({
  name: "quarry doctor reports the browser's version when it is reachable",
  ignore,
  async fn() {
    const run = await runQuarry(["doctor", "--offline", "--json"], {
      env: { QUARRY_BROWSER_URL: browser!.url },
    });
    const checks = (run.json as { results: { name: string; status: string; detail: string }[] })
      .results;
    const check = checks.find((c) => c.name === "browser");
    assert.equal(check?.status, "ok", run.stdout);
    assert.match(check!.detail, /Chrome\/\d+/);
    const down = await runQuarry(["doctor", "--offline", "--json"], {
      env: { QUARRY_BROWSER_URL: "http://127.0.0.1:9" },
    });
    const downCheck = (down.json as { results: { name: string; status: string }[] }).results
      .find((c) => c.name === "browser");
    assert.equal(downCheck?.status, "error");
  },
});

Deno.test({
  name: "quarry mcp: fetch_page takes render, returns rendered pages, and leaves no tab behind",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    const before = (await openTabs(browser!)).length;
    const spec = quarryCommand(["mcp"], await tempHome(), { QUARRY_BROWSER_URL: browser!.url });
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      env: spec.env,
      stderr: "pipe",
    });
    const client = new Client({ name: "e2e-render", version: "0" });
    try {
      await client.connect(transport);
      const url = `${web.origin}/js/shell?topic=ospreys`;
      const result = await client.callTool({
        name: "fetch_page",
        arguments: { urls: [url], render: "always", query: "how many osprey pairs nested" },
      }) as { isError?: boolean; structuredContent?: { results: Page[] } };
      assert.notEqual(result.isError, true);
      const page = result.structuredContent!.results[0]!;
      assert.equal(page.rendered, true);
      assert.match(page.excerpts!.map((e) => e.text).join(" "), /412 nesting pairs/);
      const bad = await client.callTool({
        name: "fetch_page",
        arguments: { urls: [url], render: "sometimes" },
      }) as { isError?: boolean };
      assert.equal(bad.isError, true);
    } finally {
      await client.close();
      await web.close();
    }
    assert.equal((await openTabs(browser!)).length, before);
  },
});
