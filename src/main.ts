/**
 * Quarry's entry point and `deno compile` target.
 * @module
 */
import { configFromEnv, readEnv } from "./config.ts";
import { exitCodeFor, toQuarryError } from "./errors.ts";
import { type CliIo, runCli } from "./front/cli.ts";
import { realContext } from "./front/context.ts";
import { mcpCommand } from "./front/mcp_command.ts";
import { serveCommand } from "./front/serve_command.ts";
import { archiveIndexExtension } from "./front/archive_schedule.ts";
import { OPERATIONS } from "./ops/registry.ts";

const encoder = new TextEncoder();

function writer(stream: { writeSync(p: Uint8Array): number }) {
  return (text: string) => {
    const bytes = encoder.encode(text);
    let off = 0;
    while (off < bytes.length) off += stream.writeSync(bytes.subarray(off));
  };
}

/** Runs Quarry with command-line arguments and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const stderr = writer(Deno.stderr);
  let config;
  try {
    config = configFromEnv(readEnv());
  } catch (error) {
    const qe = toQuarryError(error);
    stderr(`error [${qe.code}]: ${qe.message}\n`);
    return exitCodeFor(qe.code);
  }
  const progress = Deno.stderr.isTerminal() ? (line: string) => stderr(`${line}\n`) : () => {};
  const io: CliIo = {
    stdout: writer(Deno.stdout),
    stderr,
    context: () => realContext(config, progress),
  };
  const extras = [
    serveCommand({
      ops: OPERATIONS,
      config,
      context: io.context,
      stderr,
      extensions: [archiveIndexExtension((line) => stderr(`${line}\n`))],
    }),
    mcpCommand({ ops: OPERATIONS, context: io.context }),
  ];
  return await runCli(args, OPERATIONS, io, extras);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
