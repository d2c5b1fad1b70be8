/**
 * `quarry serve` end to end: the real program (scoped permissions), real
 * HTTP and MCP clients, pages from the fixture web.
 * @module
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { OPERATIONS } from "../../src/ops/registry.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { startQuarryServer } from "../support/quarry_server.ts";
import { runQuarry } from "../support/run_quarry.ts";

const TOKEN = "e2e-token-5d1f";
const PAGE = "/pages/faces/dry-stone-walls.html";
const auth = { authorization: `Bearer ${TOKEN}` };

Deno.test("quarry serve with a token: auth, envelopes, status codes, OpenAPI and MCP", async (t) => {
  const web = await startFixtureWeb();
  const server = await startQuarryServer([], { env: { QUARRY_TOKEN: TOKEN } });
  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.origin}${path}`, init);
    const text = await res.text();
    return { res, body: text.startsWith("{") ? JSON.parse(text) : text };
  };
  try {
    assert.match(server.origin, /^http:\/\/127\.0\.0\.1:\d+$/);

    await t.step("401 without the token or with a wrong one; /health stays open", async () => {
      const none = await get(`/fetch?url=${web.origin}${PAGE}`);
      assert.equal(none.res.status, 401);
      assert.match(none.res.headers.get("www-authenticate") ?? "", /^Bearer/);
      const wrong = await get(`/fetch?url=${web.origin}${PAGE}`, {
        headers: { authorization: "Bearer nope" },
      });
      assert.equal(wrong.res.status, 401);
      const health = await get("/health");
      assert.equal(health.res.status, 200);
      assert.equal(health.body.status, "ok");
      assert.deepEqual(health.body.stores, { kv: "ok", archive: "ok" });
    });

    await t.step("GET /fetch?url= reads the page; POST with JSON answers the same", async () => {
      const url = `${web.origin}${PAGE}`;
      const viaGet = await get(`/fetch?url=${encodeURIComponent(url)}&max=200`, {
        headers: auth,
      });
      assert.equal(viaGet.res.status, 200);
      assert.equal(viaGet.body.success, true);
      const page = viaGet.body.results[0];
      assert.equal(page.title, "How dry-stone walls stand without mortar — Field Notes");
      assert.equal(page.chars, 200);
      const viaPost = await get("/fetch", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ urls: [url], max: 200 }),
      });
      assert.equal(viaPost.res.status, 200);
      assert.deepEqual(viaPost.body.results, viaGet.body.results);
    });

    await t.step("errors map to statuses: bad URL 400, missing page 404", async () => {
      const bad = await get("/fetch?url=ftp://example.com/x", { headers: auth });
      assert.equal(bad.res.status, 400);
      assert.equal(bad.body.error.code, "BAD_INPUT");
      const missing = await get(`/fetch?url=${web.origin}/pages/faces/none.html`, {
        headers: auth,
      });
      assert.equal(missing.res.status, 404);
      assert.equal(missing.body.error.code, "NOT_FOUND");
      assert.equal(missing.body.results[0].status, "http_error");
    });

    await t.step("unknown route 404, wrong method 405, body over 1 MB 413", async () => {
      assert.equal((await get("/nope", { headers: auth })).res.status, 404);
      const wrong = await get("/fetch", { method: "PUT", headers: auth });
      assert.equal(wrong.res.status, 405);
      assert.match(wrong.res.headers.get("allow") ?? "", /GET/);
      const big = await get("/fetch", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ urls: ["x".repeat(2 * 1024 * 1024)] }),
      });
      assert.equal(big.res.status, 413);
    });

    await t.step(
      "/openapi.json is OpenAPI 3.1 with a route for every op that has one",
      async () => {
        const { res, body } = await get("/openapi.json", { headers: auth });
        assert.equal(res.status, 200);
        assert.equal(body.openapi, "3.1.0");
        assert.equal(body.components.securitySchemes.bearer.scheme, "bearer");
        for (const op of OPERATIONS.filter((o) => o.http)) {
          const operation = body.paths[op.http!.path]?.[op.http!.method.toLowerCase()];
          assert.equal(operation?.operationId, op.name, op.name);
        }
        const { PageStatus: status, ...schemas } = body.components.schemas;
        assert.ok((status as { enum: string[] }).enum.includes("unreadable"), "page statuses");
        for (const [name, schema] of Object.entries(schemas)) {
          assert.equal((schema as { type?: string }).type, "object", name);
        }
      },
    );

    await t.step("MCP over Streamable HTTP at /mcp, with the token", async () => {
      const client = new Client({ name: "e2e", version: "0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), {
          requestInit: { headers: auth },
        }),
      );
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "fetch_page"));
      const result = await client.callTool({
        name: "fetch_page",
        arguments: { urls: [`${web.origin}${PAGE}`] },
      });
      assert.equal(result.isError, undefined);
      assert.equal((result.structuredContent as { success: boolean }).success, true);
      await client.close();
    });
  } finally {
    const code = await server.close();
    await web.close();
    assert.equal(code, 0, server.stderr());
  }
});

Deno.test("quarry serve refuses a non-loopback address without a token", async () => {
  const run = await runQuarry(["serve", "--host", "0.0.0.0", "--port", "0"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Refusing to listen on 0\.0\.0\.0 without a token/);
});

Deno.test("quarry serve logs one line per event, without Deno's request.signal warning", async () => {
  const web = await startFixtureWeb();
  const home = await Deno.makeTempDir({ prefix: "quarry-serve-log-" });
  await Deno.mkdir(`${home}/notes`);
  await Deno.writeTextFile(`${home}/notes/a.md`, "# A\n\nAlpine lakes freeze.");
  const server = await startQuarryServer(["--index", `${home}/notes`], { home });
  try {
    for (let i = 0; i < 100 && !server.stderr().includes("archive index:"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const res = await fetch(`${server.origin}/fetch?url=${encodeURIComponent(web.origin + PAGE)}`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
    const mcp = new Client({ name: "e2e", version: "0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`)));
    await mcp.listTools();
    await mcp.close();
  } finally {
    await server.close();
    await web.close();
  }
  const lines = server.stderr().split("\n").filter((line) => line !== "");
  assert.doesNotMatch(server.stderr(), /request\.signal/);
  assert.deepEqual(lines.map((line) => line.replace(/:.*$/, "")), [
    "listening on http",
    "archive index",
  ]);
});
