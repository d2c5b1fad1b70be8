/**
 * Who may talk to the HTTP server: a bearer token when one is set, and,
 * against DNS rebinding and cross-site requests from a browser, only the
 * expected Host names and Origins.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import { type ErrorCode, QuarryError } from "../errors.ts";
import { type Envelope, failure } from "../envelope.ts";

const BEARER = /^Bearer\s+(.+)$/i;
const PORT_SUFFIX = /:\d+$/;
const IPV6_BRACKETS = /^\[(.*)\]$/;

/** Host names that reach a server bound to loopback. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "::1"];

/** `command` of envelopes about the HTTP exchange itself rather than an operation. */
export const HTTP_COMMAND = "http";

/** True when a bind address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(IPV6_BRACKETS, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || bare.startsWith("127.");
}

/** A JSON envelope response with a status. */
export function envelopeResponse(
  envelope: Envelope,
  status: number,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(envelope), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** An envelope about the HTTP exchange (auth, route, method, size). */
export function httpError(
  status: number,
  code: ErrorCode,
  message: string,
  suggestions: string[],
  headers: Record<string, string> = {},
): Response {
  const envelope = failure(HTTP_COMMAND, new QuarryError(code, message, { suggestions }));
  return envelopeResponse(envelope, status, headers);
}

/** Requires `Authorization: Bearer <token>`, compared in constant time. */
export function bearerAuth(token: string): MiddlewareHandler {
  return async (c, next) => {
    const match = BEARER.exec(c.req.header("authorization") ?? "");
    if (!match) {
      return httpError(401, "PERMISSION_DENIED", "A bearer token is required", [
        "Send the header `Authorization: Bearer $QUARRY_TOKEN`",
      ], { "www-authenticate": 'Bearer realm="quarry"' });
    }
    if (!(await timingSafeEqual(match[1]!.trim(), token))) {
      return httpError(401, "PERMISSION_DENIED", "The bearer token is wrong", [
        "Use the token the server was started with (--token or QUARRY_TOKEN)",
      ], { "www-authenticate": 'Bearer realm="quarry", error="invalid_token"' });
    }
    await next();
  };
}

function hostname(hostHeader: string): string {
  return hostHeader.replace(PORT_SUFFIX, "").replace(IPV6_BRACKETS, "$1").toLowerCase();
}

/**
 * Refuses a request whose Host is not one of `hosts` (a page that rebinds
 * its own name to 127.0.0.1 still sends its own name), and a browser request
 * from an Origin other than the server itself or the allowed CORS origin
 * (a cross-site page could otherwise make a local server act for it).
 */
export function sameSiteOnly(hosts: readonly string[] | undefined, cors: string | undefined) {
  const allowed = hosts && new Set(hosts.map((h) => h.toLowerCase()));
  const handler: MiddlewareHandler = async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (allowed && !allowed.has(hostname(host))) {
      return httpError(403, "PERMISSION_DENIED", `Host "${host}" is not served here`, [
        "Call the server as localhost or 127.0.0.1",
      ]);
    }
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== cors && !sameOrigin(origin, host)) {
      return httpError(403, "PERMISSION_DENIED", `Requests from ${origin} are not allowed`, [
        "Start the server with --cors <origin> to allow a web page to call it",
      ]);
    }
    await next();
  };
  return handler;
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
