/**
 * `quarry serve`: the HTTP API (and MCP over Streamable HTTP at `/mcp`).
 * Other features hook into the server through {@linkcode ServeExtension}
 * (their own options, and work that runs while the server does) instead of
 * editing this file.
 * @module
 */
import { type Command, Option } from "commander";
import type { Config } from "../config.ts";
import { exitCodeFor, toQuarryError } from "../errors.ts";
import type { OpContext, Operation } from "../ops/types.ts";
import type { ExtraCommand } from "./cli.ts";
import { withWorkers } from "./context.ts";
import { checkBind, DEFAULT_SERVER_OPTIONS, runServer, type ServerOptions } from "./server.ts";

/** Something that runs alongside the server, e.g. periodic folder indexing. */
export interface ServeExtension {
  /** Options it adds to `quarry serve`. */
  options: Option[];
  /**
   * Starts its work once the server is up; gets every parsed option and a
   * signal that aborts at shutdown. Its promise is awaited before the stores close.
   */
  start(context: OpContext, opts: Record<string, unknown>, signal: AbortSignal): Promise<void>;
}

/** What `quarry serve` needs from the entry point. */
export interface ServeCommandDeps {
  ops: readonly Operation[];
  config: Config;
  context: () => OpContext;
  stderr: (text: string) => void;
  extensions?: ServeExtension[];
}

function port(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`"${text}" is not a port`);
  return n;
}

/** Options of `quarry serve` from its flags and the config. */
export function serverOptions(opts: Record<string, unknown>, config: Config): ServerOptions {
  return {
    ...DEFAULT_SERVER_OPTIONS,
    host: (opts.host as string | undefined) ?? DEFAULT_SERVER_OPTIONS.host,
    port: (opts.port as number | undefined) ?? config.port,
    token: (opts.token as string | undefined) ?? config.token,
    cors: opts.cors as string | undefined,
  };
}

/** The `quarry serve` subcommand. */
export function serveCommand(deps: ServeCommandDeps): ExtraCommand {
  return {
    register(program: Command, setExit: (code: number) => void) {
      const cmd = program.command("serve")
        .description("Serve the HTTP API and MCP (Streamable HTTP at /mcp)")
        .addOption(
          new Option("--port <n>", `Port; 0 picks a free one (default: QUARRY_PORT or 8080)`)
            .argParser(port),
        )
        .addOption(new Option("--host <host>", "Address to bind").default("127.0.0.1"))
        .addOption(
          new Option("--token <token>", "Bearer token clients must send (prefer QUARRY_TOKEN)"),
        )
        .addOption(new Option("--cors <origin>", "Let web pages from this origin call the API"));
      for (const extension of deps.extensions ?? []) {
        for (const option of extension.options) cmd.addOption(option);
      }
      cmd.action(async () => {
        const opts = cmd.opts();
        const options = serverOptions(opts, deps.config);
        // Pages are parsed in workers so the server keeps answering meanwhile.
        const { context, close } = withWorkers(deps.context());
        const stop = new AbortController();
        let running: Promise<void>[] = [];
        try {
          checkBind(options.host, options.token);
          running = (deps.extensions ?? []).map((e) => e.start(context, opts, stop.signal));
          await runServer({ ops: deps.ops, context, options, stderr: deps.stderr });
          setExit(0);
        } catch (error) {
          const qe = toQuarryError(error);
          deps.stderr(`error [${qe.code}]: ${qe.message}\n`);
          for (const s of qe.suggestions) deps.stderr(`  hint: ${s}\n`);
          setExit(exitCodeFor(qe.code));
        } finally {
          stop.abort();
          await Promise.allSettled(running);
          await close();
        }
      });
    },
  };
}
