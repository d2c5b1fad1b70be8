/**
 * Everything the entry point runs once it knows a command is asked for: the
 * CLI with its operations (each loaded when named), `serve` and `mcp`.
 *
 * `src/main.ts` imports this module through a specifier Deno cannot read
 * ahead, so `quarry --version` does not make Deno walk the imports below
 * (and the npm packages behind them); `deno task compile` includes it by name.
 * @module
 */
import type { Config } from "../config.ts";
import { CATALOG } from "../ops/catalog.ts";
import { runCli } from "./cli.ts";
import { realContext } from "./context.ts";

/** Where the program writes. */
export interface ProgramIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs the CLI (or a server) for `args` and returns the exit code. */
export async function runProgram(
  args: string[],
  config: Config,
  out: ProgramIo,
): Promise<number> {
  const { stdout, stderr } = out;
  const line = (text: string) => stderr(`${text}\n`);
  const io = {
    stdout,
    stderr,
    context: (options: { progress?: boolean } = {}) =>
      realContext(config, options.progress || Deno.stderr.isTerminal() ? line : () => {}),
  };
  const allOps = async () => (await import("../ops/registry.ts")).OPERATIONS;
  const extras = [
    {
      name: "serve",
      summary: "Serve the HTTP API and MCP (Streamable HTTP at /mcp)",
      load: async () => {
        const [{ serveCommand }, { archiveIndexExtension }, ops] = await Promise.all([
          import("./serve_command.ts"),
          import("./archive_schedule.ts"),
          allOps(),
        ]);
        return serveCommand({
          ops,
          config,
          context: io.context,
          stderr,
          extensions: [archiveIndexExtension(line)],
        });
      },
    },
    {
      name: "mcp",
      summary: "Serve MCP on stdio (for agent hosts: Claude, Cursor, …)",
      load: async () => {
        const [{ mcpCommand }, ops] = await Promise.all([
          import("./mcp_command.ts"),
          allOps(),
        ]);
        return mcpCommand({ ops, context: io.context });
      },
    },
  ];
  return await runCli(args, CATALOG, io, extras);
}
