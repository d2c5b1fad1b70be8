/**
 * The MCP face, generated from the operation registry: every operation with
 * an `mcp` entry becomes a tool whose input schema is the op's zod schema and
 * whose structured output is the JSON envelope.
 *
 * Arguments that do not match the schema are rejected by the SDK before the
 * op runs (reported, as the MCP spec asks, as an `isError` result saying
 * "Input validation error"); a failure inside the op comes back as an
 * `isError` result whose text and `structuredContent` carry the code and hints.
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../config.ts";
import type { OpContext, Operation } from "../ops/types.ts";
import { type Envelope, failure } from "../envelope.ts";
import { envelopeSchema } from "./envelope_schema.ts";
import { cacheNote } from "../render/markdown.ts";
import { registerDocuments } from "./mcp_resources.ts";

/** What the SDK passes a tool call: its abort signal, progress token and notifier. */
export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Text a model reads: the op's report on success, the code and hints on failure. */
export function toolText(op: Operation, envelope: Envelope, input: unknown): string {
  if (!envelope.success) {
    const { code, message, suggestions, retry_after } = envelope.error;
    const hints = suggestions.map((s) => `hint: ${s}`);
    if (retry_after !== undefined) hints.push(`retry after: ${retry_after} s`);
    const report = envelope.results && op.render ? ["", op.render(envelope, input as never)] : [];
    return [`error [${code}]: ${message}`, ...hints, ...report].join("\n");
  }
  return op.render
    ? op.render(envelope, input as never) + cacheNote(envelope)
    : JSON.stringify(envelope);
}

/** Runs one op for one tool call and shapes the result. */
export async function callTool(
  op: Operation,
  context: OpContext,
  input: unknown,
  extra: CallExtra,
): Promise<CallToolResult> {
  const token = extra._meta?.progressToken;
  let step = 0;
  const progress = (line: string) => {
    context.progress(line);
    if (token === undefined) return;
    step += 1;
    extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: token, progress: step, message: line },
    }).catch(() => {});
  };
  const signal = context.signal ? AbortSignal.any([context.signal, extra.signal]) : extra.signal;
  let envelope: Envelope;
  try {
    envelope = await op.run({ ...context, signal, progress }, input as never);
  } catch (error) {
    envelope = failure(op.name, error);
  }
  return {
    content: [{ type: "text", text: toolText(op, envelope, input) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    ...(envelope.success ? {} : { isError: true }),
  };
}

/** Builds an MCP server exposing every op that has an `mcp` entry, and archived documents. */
export function createMcpServer(
  ops: readonly Operation[],
  context: OpContext,
  options: { documentsPerPage?: number } = {},
): McpServer {
  const server = new McpServer(
    { name: "quarry", title: "Quarry", version: VERSION },
    {
      instructions: "Quarry searches the web, reads pages and remembers what it read. " +
        "Every tool returns a JSON envelope as structuredContent and a readable report as text.",
    },
  );
  for (const op of ops) {
    if (!op.mcp) continue;
    server.registerTool(op.mcp.tool, {
      title: op.mcp.title,
      description: op.description,
      inputSchema: op.input,
      outputSchema: envelopeSchema,
      annotations: { title: op.mcp.title, ...op.mcp.annotations },
    }, (input: unknown, extra: CallExtra) => callTool(op, context, input, extra));
  }
  registerDocuments(server, context, options.documentsPerPage);
  return server;
}
