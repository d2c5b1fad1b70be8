/**
 * Quarry's entry point and `deno compile` / `deno install` target.
 *
 * Start-up is kept to what the command uses: this module imports only the
 * config and error modules; the CLI, each operation, the servers and the
 * stores are imported when the arguments ask for them.
 * @module
 */
import { configFromEnv, readEnv, VERSION } from "./config.ts";
import { exitCodeFor, toQuarryError } from "./errors.ts";
import { narrowWrite } from "./permissions.ts";

const encoder = new TextEncoder();

function writer(stream: { writeSync(p: Uint8Array): number }) {
  return (text: string) => {
    const bytes = encoder.encode(text);
    let off = 0;
    while (off < bytes.length) off += stream.writeSync(bytes.subarray(off));
  };
}

const VERSION_FLAGS = new Set(["--version", "-V"]);

/** Runs Quarry with command-line arguments and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const stdout = writer(Deno.stdout);
  const stderr = writer(Deno.stderr);
  const env = readEnv();
  let config;
  try {
    config = configFromEnv(env);
  } catch (error) {
    const qe = toQuarryError(error);
    stderr(`error [${qe.code}]: ${qe.message}\n`);
    return exitCodeFor(qe.code);
  }
  narrowWrite(config.home, env);
  // Asked for the version, answer before loading anything else.
  if (args.length === 1 && VERSION_FLAGS.has(args[0]!)) {
    stdout(`${VERSION}\n`);
    return 0;
  }
  const [{ runCli }, { CATALOG }, { realContext }] = await Promise.all([
    import("./front/cli.ts"),
    import("./ops/catalog.ts"),
    import("./front/context.ts"),
  ]);
  const line = (text: string) => stderr(`${text}\n`);
  const io = {
    stdout,
    stderr,
    context: (options: { progress?: boolean } = {}) =>
      realContext(config, options.progress || Deno.stderr.isTerminal() ? line : () => {}),
  };
  const allOps = async () => (await import("./ops/registry.ts")).OPERATIONS;
  const extras = [
    {
      name: "serve",
      summary: "Serve the HTTP API and MCP (Streamable HTTP at /mcp)",
      load: async () => {
        const [{ serveCommand }, { archiveIndexExtension }, ops] = await Promise.all([
          import("./front/serve_command.ts"),
          import("./front/archive_schedule.ts"),
          allOps(),
        ]);
        return serveCommand({
          ops,
          config,
          context: io.context,
          stderr,
          extensions: [archiveIndexExtension(stderr)],
        });
      },
    },
    {
      name: "mcp",
      summary: "Serve MCP on stdio (for agent hosts: Claude, Cursor, …)",
      load: async () => {
        const [{ mcpCommand }, ops] = await Promise.all([
          import("./front/mcp_command.ts"),
          allOps(),
        ]);
        return mcpCommand({ ops, context: io.context });
      },
    },
  ];
  return await runCli(args, CATALOG, io, extras);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
