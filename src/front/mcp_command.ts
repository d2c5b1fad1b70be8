/**
 * `quarry mcp`: the MCP server on stdio, for agent hosts that spawn it.
 * stdout carries protocol messages only; anything else goes to stderr.
 * @module
 */
import process from "node:process";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Command } from "commander";
import type { OpContext, Operation } from "../ops/types.ts";
import type { ExtraCommand } from "./cli.ts";
import { withWorkers } from "./context.ts";
import { createMcpServer } from "./mcp.ts";

/** What `quarry mcp` needs from the entry point. */
export interface McpCommandDeps {
  ops: readonly Operation[];
  context: () => OpContext;
}

/** Serves MCP on stdio until stdin ends, the client disconnects, or SIGINT/SIGTERM. */
export async function runStdioServer(ops: readonly Operation[], context: OpContext): Promise<void> {
  const server = createMcpServer(ops, context);
  const transport = new StdioServerTransport();
  const { promise: ended, resolve: end } = Promise.withResolvers<void>();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, end);
  // The SDK's stdio transport does not notice stdin closing; the host closing it means "stop".
  process.stdin.once("end", end);
  process.stdin.once("close", end);
  transport.onclose = end;
  try {
    await server.connect(transport);
    await ended;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, end);
    process.stdin.off("end", end);
    process.stdin.off("close", end);
    await server.close().catch(() => {});
  }
}

/** The `quarry mcp` subcommand. */
export function mcpCommand(deps: McpCommandDeps): ExtraCommand {
  return {
    register(program: Command, setExit: (code: number) => void) {
      program.command("mcp")
        .description("Serve MCP on stdio (for agent hosts: Claude, Cursor, …)")
        .action(async () => {
          // Pages are parsed in workers so protocol messages (cancel, ping) are read meanwhile.
          const { context, close } = withWorkers(deps.context());
          try {
            await runStdioServer(deps.ops, context);
            setExit(0);
          } finally {
            await close();
          }
        });
    },
  };
}
