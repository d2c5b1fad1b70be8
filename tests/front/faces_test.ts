import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Command } from "commander";
import { buildProgram } from "../../src/front/cli.ts";
import { createMcpServer } from "../../src/front/mcp.ts";
import { openApiDocument } from "../../src/front/openapi.ts";
import { OPERATIONS } from "../../src/ops/registry.ts";
import { testContext } from "./fake_ops.ts";

/** Every leaf command path of a commander program, e.g. `archive search`. */
function leafCommands(cmd: Command, prefix: string[] = []): string[] {
  return cmd.commands.flatMap((c) => {
    const path = [...prefix, c.name()];
    return c.commands.length > 0 ? leafCommands(c, path) : [path.join(" ")];
  });
}

Deno.test("the CLI, HTTP and MCP faces expose exactly the registry's operations", async () => {
  const context = await testContext();
  const program = buildProgram(OPERATIONS, {
    stdout: () => {},
    stderr: () => {},
    context: () => context,
  }, () => {});
  assert.deepEqual(
    leafCommands(program).sort(),
    OPERATIONS.map((op) => op.command.join(" ")).sort(),
  );

  const doc = openApiDocument(OPERATIONS, { version: "0" }) as {
    paths: Record<string, Record<string, { "x-quarry-operation"?: string }>>;
  };
  const routed = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const name = operation["x-quarry-operation"];
      if (!name) continue;
      routed.add(name);
      const op = OPERATIONS.find((o) => o.name === name)!;
      assert.equal(op.http?.path, path);
      assert.ok(method === op.http?.method.toLowerCase() || method === "post", `${method} ${path}`);
    }
  }
  assert.deepEqual(
    [...routed].sort(),
    OPERATIONS.filter((op) => op.http).map((op) => op.name).sort(),
  );

  const server = createMcpServer(OPERATIONS, context);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "faces", version: "0" });
  await Promise.all([server.connect(a), client.connect(b)]);
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name).sort(),
    OPERATIONS.flatMap((op) => (op.mcp ? [op.mcp.tool] : [])).sort(),
  );
  for (const tool of tools) {
    const op = OPERATIONS.find((o) => o.mcp?.tool === tool.name)!;
    assert.equal(tool.description, op.description);
    assert.equal(tool.title, op.mcp!.title);
  }
  await client.close();
  await context.stores.close();
});

Deno.test("operation names, HTTP routes and MCP tool names are unique", () => {
  const unique = (xs: string[]) => assert.equal(new Set(xs).size, xs.length, xs.join(", "));
  unique(OPERATIONS.map((op) => op.name));
  unique(OPERATIONS.map((op) => op.command.join(" ")));
  unique(OPERATIONS.flatMap((op) => (op.http ? [`${op.http.method} ${op.http.path}`] : [])));
  unique(OPERATIONS.flatMap((op) => (op.mcp ? [op.mcp.tool] : [])));
  const reserved = new Set(["/health", "/openapi.json", "/mcp"]);
  for (const op of OPERATIONS) assert.ok(!reserved.has(op.http?.path ?? ""), op.name);
});
