/**
 * Running the HTTP face: refuse an open non-loopback bind, listen, announce
 * the real address, and shut down gracefully on SIGINT/SIGTERM.
 * @module
 */
import { QuarryError } from "../errors.ts";
import type { OpContext, Operation } from "../ops/types.ts";
import { createHttpApp, type HttpConfig } from "./http_app.ts";
import { isLoopbackHost, LOOPBACK_HOSTS } from "./http_guard.ts";

/** Where and how `quarry serve` listens. */
export interface ServerOptions {
  host: string;
  /** 0 picks a free port (announced in the "listening on" line). */
  port: number;
  token: string | undefined;
  cors: string | undefined;
  /** How long running requests may take to finish after a shutdown signal. */
  graceMs: number;
}

/** Defaults of {@linkcode ServerOptions} (port and token come from the config). */
export const DEFAULT_SERVER_OPTIONS: Omit<ServerOptions, "port" | "token"> = {
  host: "127.0.0.1",
  cors: undefined,
  // Stopping within 2 s of SIGTERM (issue 11): running reads are given up after this.
  graceMs: 1_000,
};

/** Throws unless the bind is loopback or a token guards it (DESIGN §7). */
export function checkBind(host: string, token: string | undefined): void {
  if (token || isLoopbackHost(host)) return;
  throw new QuarryError("BAD_INPUT", `Refusing to listen on ${host} without a token`, {
    suggestions: [
      "Set QUARRY_TOKEN (or pass --token) so clients must send Authorization: Bearer",
      "Or listen on loopback only: --host 127.0.0.1",
    ],
  });
}

/** `listening on http://host:port`, with IPv6 hosts in brackets. */
export function listeningLine(addr: { hostname: string; port: number }): string {
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  return `listening on http://${host}:${addr.port}`;
}

/** The HTTP settings that follow from how the server is bound. */
export function httpSettings(host: string, token: string | undefined): Partial<HttpConfig> {
  // Without a token the server is reachable only as a loopback name, which
  // keeps pages that rebind their own domain to 127.0.0.1 out.
  return token ? {} : { allowedHosts: [...new Set([...LOOPBACK_HOSTS, host.toLowerCase()])] };
}

/** What {@linkcode runServer} needs. */
export interface RunServerDeps {
  ops: readonly Operation[];
  context: OpContext;
  options: ServerOptions;
  stderr: (text: string) => void;
  /** Ends the server (tests); SIGINT and SIGTERM do too. */
  signal?: AbortSignal;
}

/**
 * Serves until SIGINT/SIGTERM (or `signal`) and every running request has
 * ended. The caller owns the context and closes its stores afterwards.
 */
export async function runServer(deps: RunServerDeps): Promise<void> {
  const { options, stderr } = deps;
  checkBind(options.host, options.token);
  // Aborted after the grace period so long operations give up at shutdown.
  const stopOps = new AbortController();
  const context: OpContext = {
    ...deps.context,
    signal: deps.context.signal
      ? AbortSignal.any([deps.context.signal, stopOps.signal])
      : stopOps.signal,
  };
  const app = createHttpApp({
    ops: deps.ops,
    context,
    token: options.token,
    http: { ...httpSettings(options.host, options.token), cors: options.cors },
    log: (line) => stderr(`${line}\n`),
  });
  const server = Deno.serve({
    hostname: options.host,
    port: options.port,
    onListen: (addr) => stderr(`${listeningLine(addr)}\n`),
  }, (req) => app.fetch(req));
  let stopping = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const onSignal = () => {
    // A second signal, or the grace period running out, stops running operations.
    if (stopping) return stopOps.abort();
    stopping = true;
    grace = setTimeout(() => stopOps.abort(), options.graceMs);
    server.shutdown().catch(() => {});
  };
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  deps.signal?.addEventListener("abort", onSignal, { once: true });
  try {
    await server.finished;
  } finally {
    clearTimeout(grace);
    stopOps.abort();
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
    deps.signal?.removeEventListener("abort", onSignal);
  }
}
