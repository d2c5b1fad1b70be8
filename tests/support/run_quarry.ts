/**
 * Spawns the real program the way a user does — `deno task quarry …`, with
 * the task's scoped permissions — and collects what it printed.
 * @module
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/** What one run printed and how it ended. */
export interface QuarryRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON when it is JSON. */
  json: unknown;
}

/** Options of {@linkcode runQuarry}. */
export interface RunOptions {
  /** Environment added to a minimal one (QUARRY_HOME etc.). */
  env?: Record<string, string>;
  /** Data directory; a fresh temp dir when omitted. */
  home?: string;
  /** Text written to the program's stdin. */
  stdin?: string;
}

/** A fresh data directory for one test. */
export function tempHome(): Promise<string> {
  return Deno.makeTempDir({ prefix: "quarry-test-" });
}

/** How to spawn `deno task quarry <args>`: the program, arguments, directory and (whole) env. */
export interface QuarryCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * The command line and environment of `deno task quarry <args>` for a data
 * directory, for tests that spawn it themselves (e.g. an MCP client's stdio
 * transport). The environment is complete: start the process with a clear one.
 */
export function quarryCommand(
  args: string[],
  home: string,
  env: Record<string, string> = {},
): QuarryCommand {
  return {
    command: Deno.execPath(),
    args: ["task", "--quiet", "quarry", ...args],
    cwd: ROOT,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
      NO_COLOR: "1",
      QUARRY_HOME: home,
      QUARRY_ALLOW_PRIVATE_NETWORK: "1",
      QUARRY_RATE_LIMIT: "0",
      ...env,
    },
  };
}

/**
 * Runs `deno task quarry <args>` with private-network fetching allowed (the
 * fixture web is on loopback) and a fast engine rate limit.
 */
export async function runQuarry(args: string[], options: RunOptions = {}): Promise<QuarryRun> {
  const home = options.home ?? await tempHome();
  const command = new Deno.Command(Deno.execPath(), {
    ...quarryCommand(args, home, options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  let json: unknown = undefined;
  try {
    json = JSON.parse(stdout);
  } catch {
    // Not JSON: a report or nothing.
  }
  return { code: out.code, stdout, stderr: new TextDecoder().decode(out.stderr), json };
}
