/**
 * The HTTP face, generated from the operation registry with Hono: each op's
 * route takes its input from the query string (GET, DELETE) or a JSON body
 * (POST, also accepted on GET routes) and answers with the JSON envelope,
 * its error code mapped to an HTTP status.
 * @module
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { VERSION } from "../config.ts";
import { HTTP_STATUS, toQuarryError } from "../errors.ts";
import type { OpContext, Operation } from "../ops/types.ts";
import { type Envelope, failure } from "../envelope.ts";
import {
  bearerAuth,
  envelopeResponse,
  HTTP_COMMAND,
  httpError,
  sameSiteOnly,
} from "./http_guard.ts";
import { httpInputError, inputFromBody, inputFromQuery, paramTable } from "./http_input.ts";
import { handleMcpPost, mcpMethodNotAllowed } from "./mcp_http.ts";
import { MCP_PATH, openApiDocument } from "./openapi.ts";
import { healthReport } from "./health.ts";

/** Limits and browser access of the HTTP face. */
export interface HttpConfig {
  /** Largest request body in bytes; larger ones get 413. */
  maxBodyBytes: number;
  /** Origin allowed to call from a browser (CORS); none when undefined. */
  cors: string | undefined;
  /** Host header names accepted; any when undefined (a token guards the server). */
  allowedHosts: readonly string[] | undefined;
}

/** Defaults of {@linkcode HttpConfig}. */
export const DEFAULT_HTTP_CONFIG: HttpConfig = {
  maxBodyBytes: 1024 * 1024,
  cors: undefined,
  allowedHosts: undefined,
};

/** What the HTTP face is built from. */
export interface HttpDeps {
  ops: readonly Operation[];
  /** Shared by every request: one KV, one archive connection. */
  context: OpContext;
  /** Bearer token for every route but `/health`. @default {context.config.token} */
  token?: string | undefined;
  http?: Partial<HttpConfig>;
  /** Server log (stderr): internal errors go here, never to the client. */
  log?: (line: string) => void;
}

/** A request handler, as `deno serve` and `Deno.serve` expect. */
export interface HttpApp {
  fetch(req: Request): Promise<Response>;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
/** Statuses that say "try again later". */
const RETRY_STATUSES = new Set([429, 503]);

/** Seconds a client should wait before retrying a failed envelope. */
function retryAfterOf(envelope: Envelope, fallbackMs: number): number {
  const given = envelope.success ? undefined : envelope.error.retry_after;
  // Without a figure from the source, a blocked engine comes back after its cool-down.
  return given ?? Math.ceil(fallbackMs / 1000);
}

/** The op's input from the query and a JSON body, or the response refusing them. */
async function readInput(req: Request, op: Operation): Promise<Record<string, unknown> | Response> {
  const table = paramTable(op);
  const fromQuery = inputFromQuery(op, new URL(req.url).searchParams, table);
  if (req.method === "GET" || req.method === "HEAD") return fromQuery;
  const text = await req.text();
  if (!text.trim()) return fromQuery;
  // Only JSON: a browser cannot send it cross-site without a CORS preflight.
  if (!JSON_TYPE.test(req.headers.get("content-type") ?? "")) {
    return httpError(415, "BAD_INPUT", "The request body must be application/json", [
      "Send the header `Content-Type: application/json`",
    ]);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return httpError(400, "BAD_INPUT", "The request body is not valid JSON", [
      "Send a JSON object",
    ]);
  }
  return { ...fromQuery, ...inputFromBody(op, body, table) };
}

/** Runs one op for one request. */
async function runRoute(op: Operation, req: Request, deps: HttpDeps): Promise<Response> {
  let raw: Record<string, unknown> | Response;
  try {
    raw = await readInput(req, op);
  } catch (error) {
    const envelope = failure(op.name, error);
    return envelopeResponse(envelope, HTTP_STATUS[envelope.error.code]);
  }
  if (raw instanceof Response) return raw;
  const parsed = op.input.safeParse(raw);
  if (!parsed.success) {
    return envelopeResponse(failure(op.name, httpInputError(parsed.error, op)), 400);
  }
  const { context } = deps;
  const signal = context.signal ? AbortSignal.any([context.signal, req.signal]) : req.signal;
  let envelope: Envelope;
  try {
    envelope = await op.run({ ...context, signal }, parsed.data);
  } catch (error) {
    const thrown = toQuarryError(error);
    if (thrown.code === "INTERNAL") deps.log?.(`${op.name}: ${String(thrown.cause ?? error)}`);
    envelope = failure(op.name, thrown);
  }
  if (envelope.success) return envelopeResponse(envelope, 200);
  const status = HTTP_STATUS[envelope.error.code];
  const retry = RETRY_STATUSES.has(status)
    ? { "retry-after": String(retryAfterOf(envelope, context.config.cooldownMs)) }
    : undefined;
  return envelopeResponse(envelope, status, retry);
}

/** Builds the HTTP face over a set of operations and one shared context. */
export function createHttpApp(deps: HttpDeps): HttpApp {
  const config = { ...DEFAULT_HTTP_CONFIG, ...deps.http };
  const token = "token" in deps ? deps.token : deps.context.config.token;
  const app = new Hono();
  app.onError((error, c) => {
    deps.log?.(`${c.req.method} ${c.req.path}: ${String(error)}`);
    // An unknown error becomes INTERNAL with a generic message: no internals leak.
    const envelope = failure(HTTP_COMMAND, error);
    return envelopeResponse(envelope, HTTP_STATUS[envelope.error.code]);
  });
  app.notFound((c) =>
    httpError(404, "NOT_FOUND", `No route ${c.req.method} ${c.req.path}`, [
      "See GET /openapi.json for the routes",
    ])
  );
  if (config.cors) {
    app.use("*", cors({ origin: config.cors, exposeHeaders: ["Retry-After", "Mcp-Session-Id"] }));
  }
  app.use("*", sameSiteOnly(config.allowedHosts, config.cors));
  app.get("/health", async () => {
    const report = await healthReport(deps.context.stores, VERSION);
    return Response.json(report, { status: report.status === "ok" ? 200 : 503 });
  });
  if (token) app.use("*", bearerAuth(token));
  app.use(
    "*",
    bodyLimit({
      maxSize: config.maxBodyBytes,
      onError: () =>
        httpError(413, "BAD_INPUT", `The request body is over ${config.maxBodyBytes} bytes`, [
          "Send a smaller body",
        ]),
    }),
  );
  const openapi = openApiDocument(deps.ops, { version: VERSION, bearer: Boolean(token) });
  app.get("/openapi.json", (c) => c.json(openapi));
  app.post(MCP_PATH, (c) => handleMcpPost(c.req.raw, deps.ops, deps.context));
  app.on(["GET", "DELETE"], MCP_PATH, () => mcpMethodNotAllowed());
  const byPath = new Map<string, Map<string, Operation>>();
  for (const op of deps.ops) {
    if (!op.http) continue;
    const methods = byPath.get(op.http.path) ?? new Map<string, Operation>();
    methods.set(op.http.method, op);
    byPath.set(op.http.path, methods);
  }
  for (const [path, methods] of byPath) {
    const get = methods.get("GET");
    if (get && !methods.has("POST")) methods.set("POST", get);
    for (const [method, op] of methods) {
      app.on(method, path, (c) => runRoute(op, c.req.raw, deps));
    }
    const allow = [...methods.keys(), ...(get ? ["HEAD"] : [])].join(", ");
    app.all(path, (c) =>
      httpError(405, "BAD_INPUT", `${c.req.method} is not allowed on ${path}`, [
        `Use ${allow}`,
      ], { allow }));
  }
  return { fetch: (req) => Promise.resolve(app.fetch(req)) };
}
