/**
 * MCP over Streamable HTTP at `/mcp` of `quarry serve`, in the SDK's
 * stateless mode: each POST gets its own server and transport over the
 * shared context, so no session state lives in the process and any number
 * of clients may call at once. Answers are plain JSON (no SSE stream), and a
 * client that goes away aborts the tool call it was waiting for.
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { OpContext, Operation } from "../ops/types.ts";
import { createMcpServer } from "./mcp.ts";

/** JSON-RPC "server error" code the SDK's stateless examples use for unsupported methods. */
const JSONRPC_SERVER_ERROR = -32000;

/** Answers a GET or DELETE on `/mcp`: there are no sessions or server-sent streams. */
export function mcpMethodNotAllowed(): Response {
  return Response.json({
    jsonrpc: "2.0",
    error: { code: JSONRPC_SERVER_ERROR, message: "Method not allowed: POST JSON-RPC messages" },
    id: null,
  }, { status: 405, headers: { allow: "POST" } });
}

/** Handles one POST to `/mcp`. */
export async function handleMcpPost(
  req: Request,
  ops: readonly Operation[],
  context: OpContext,
): Promise<Response> {
  const server = createMcpServer(ops, context);
  // No sessionIdGenerator: stateless mode.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  const close = () => server.close().catch(() => {});
  req.signal.addEventListener("abort", close, { once: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(req);
  } finally {
    req.signal.removeEventListener("abort", close);
    await close();
  }
}
