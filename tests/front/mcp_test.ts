import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createHttpApp, type HttpApp } from "../../src/front/http_app.ts";
import { createMcpServer } from "../../src/front/mcp.ts";
import type { OpContext } from "../../src/ops/types.ts";
import { FAKE_OPS, testContext } from "./fake_ops.ts";

/** A fetch that hands requests to the app in this process. */
function inProcess(app: HttpApp) {
  return (input: string | URL, init?: RequestInit) => app.fetch(new Request(input, init));
}

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};

async function connected(): Promise<{ client: Client; context: OpContext }> {
  const context = await testContext();
  const server = createMcpServer(FAKE_OPS, context);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, context };
}

Deno.test("createMcpServer() lists a tool for each op with an mcp entry, with schemas and hints", async () => {
  const { client, context } = await connected();
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ["echo_input", "fail_now"]);
  const echo = tools.find((t) => t.name === "echo_input")!;
  assert.equal(echo.title, "Echo");
  assert.equal(echo.description, "Returns its input; for tests.");
  assert.deepEqual(echo.inputSchema.required, ["query"]);
  assert.equal(echo.outputSchema?.type, "object");
  assert.equal(echo.annotations?.readOnlyHint, true);
  await client.close();
  await context.stores.close();
});

Deno.test("a tool call returns the report as text and the envelope as structuredContent", async () => {
  const { client, context } = await connected();
  const result = await client.callTool({
    name: "echo_input",
    arguments: { query: "hi", count: 2 },
  }) as ToolResult;
  assert.equal(result.isError, undefined);
  const envelope = result.structuredContent!;
  assert.equal(envelope.success, true);
  assert.deepEqual(envelope.results, [{ query: "hi", count: 2, force: false }]);
  assert.match(result.content[0]!.text!, /^echo: /);
  await client.close();
  await context.stores.close();
});

Deno.test("a failing op is an isError result carrying its code and hints", async () => {
  const { client, context } = await connected();
  for (const thrown of [false, true]) {
    const result = await client.callTool({
      name: "fail_now",
      arguments: { code: "UPSTREAM_ERROR", thrown },
    }) as ToolResult;
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text!, /UPSTREAM_ERROR/);
    assert.match(result.content[0]!.text!, /hint: try again/);
    const error = result.structuredContent!.error as { code: string };
    assert.equal(error.code, "UPSTREAM_ERROR");
  }
  const internal = await client.callTool({
    name: "fail_now",
    arguments: { code: "INTERNAL" },
  }) as ToolResult;
  assert.doesNotMatch(JSON.stringify(internal), /secret|passwd/);
  await client.close();
  await context.stores.close();
});

Deno.test("arguments that break the schema are rejected before the op runs", async () => {
  const { client, context } = await connected();
  const result = await client.callTool({
    name: "echo_input",
    arguments: { query: "", count: "many" },
  }) as ToolResult;
  assert.equal(result.isError, true);
  assert.match(result.content[0]!.text!, /Input validation error/);
  assert.equal(result.structuredContent, undefined);
  await client.close();
  await context.stores.close();
});

Deno.test("/mcp of the HTTP app speaks MCP over Streamable HTTP, behind the token", async () => {
  const context = await testContext();
  const app = createHttpApp({ ops: FAKE_OPS, context, token: "t0k" });
  const url = new URL("http://127.0.0.1:8080/mcp");
  const refused = new Client({ name: "test", version: "0" });
  await assert.rejects(
    refused.connect(
      new StreamableHTTPClientTransport(url, {
        fetch: inProcess(app),
      }),
    ),
  );
  const client = new Client({ name: "test", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      fetch: inProcess(app),
      requestInit: { headers: { authorization: "Bearer t0k" } },
    }),
  );
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ["echo_input", "fail_now"]);
  const result = await client.callTool({ name: "echo_input", arguments: { query: "x" } });
  assert.equal((result.structuredContent as { success: boolean }).success, true);
  await client.close();
  await context.stores.close();
});
