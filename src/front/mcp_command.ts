/**
 * `quarry mcp`: the MCP server on stdio, for agent hosts that spawn it.
 * stdout carries protocol messages only; anything else goes to stderr.
 * @module
 */
import type { Command } from "commander";
import type { OpContext, Operation } from "../ops/types.ts";
import type { ExtraCommand } from "./cli.ts";
import { withWorkers } from "./context.ts";
import { createMcpServer } from "./mcp.ts";
import { LineTransport } from "./mcp_stdio.ts";

/** What `quarry mcp` needs from the entry point. */
export interface McpCommandDeps {
  ops: readonly Operation[];
  context: () => OpContext;
}

/** How long calls in flight may run on after stdin closes, before they are cut short. */
const DRAIN_MS = 1_200;
/** How long cut-short calls get to send their answers. */
const ANSWER_MS = 500;

function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Writes all of `text` to stdout (protocol messages only). */
async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let off = 0; off < bytes.length;) off += await Deno.stdout.write(bytes.subarray(off));
}

/**
 * Serves MCP on stdio until stdin ends or SIGINT/SIGTERM. Calls in flight
 * then get a moment to finish and are answered before the process exits.
 */
export async function runStdioServer(ops: readonly Operation[], context: OpContext): Promise<void> {
  const stopOps = new AbortController();
  const signal = context.signal
    ? AbortSignal.any([context.signal, stopOps.signal])
    : stopOps.signal;
  const server = createMcpServer(ops, { ...context, signal });
  const transport = new LineTransport(Deno.stdin.readable, writeStdout);
  const { promise: stopped, resolve: stop } = Promise.withResolvers<void>();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  transport.onclose = stop;
  try {
    await server.connect(transport);
    await Promise.race([transport.ended, stopped]);
    await within(transport.idle(), DRAIN_MS);
    stopOps.abort();
    await within(transport.idle(), ANSWER_MS);
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, stop);
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
          const base = deps.context();
          const { context, close } = withWorkers(base, { indexRoots: base.config.indexRoots });
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
