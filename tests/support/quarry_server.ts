/**
 * Starts the real `quarry serve` (through `deno task`, with its scoped
 * permissions) on a free port and reads the address it announces.
 * @module
 */
import { quarryCommand, tempHome } from "./run_quarry.ts";

const LISTENING = /listening on (http:\/\/\S+)/;

/** A running `quarry serve`. */
export interface QuarryServer {
  origin: string;
  /** Process id of `deno task` (the server runs as its child). */
  pid: number;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and waits for the exit code. */
  close(): Promise<number>;
}

/** Options of {@linkcode startQuarryServer}. */
export interface ServerRunOptions {
  env?: Record<string, string>;
  home?: string;
}

/** Spawns `quarry serve --port 0 <args>` and resolves once it listens. */
export async function startQuarryServer(
  args: string[] = [],
  options: ServerRunOptions = {},
): Promise<QuarryServer> {
  const home = options.home ?? await tempHome();
  const spec = quarryCommand(["serve", "--port", "0", ...args], home, options.env);
  const child = new Deno.Command(spec.command, {
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const { promise: listening, resolve, reject } = Promise.withResolvers<string>();
  const pump = (async () => {
    for await (const chunk of child.stderr) {
      text += decoder.decode(chunk, { stream: true });
      const match = LISTENING.exec(text);
      if (match) resolve(match[1]!);
    }
    reject(new Error(`quarry serve exited before listening:\n${text}`));
  })();
  const origin = await listening;
  return {
    origin,
    pid: child.pid,
    stderr: () => text,
    async close() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      const status = await child.status;
      await pump.catch(() => {});
      return status.code;
    },
  };
}
