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
/** The rest of the program (src/front/run.ts), loaded once a command is asked for. */
const RUN_MODULE = new URL("./front/run.ts", import.meta.url).href;

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
  // Not a literal: Deno would otherwise read the whole program's imports ahead, even for --version.
  const { runProgram }: typeof import("./front/run.ts") = await import(RUN_MODULE);
  return await runProgram(args, config, { stdout, stderr });
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
