/**
 * The MCP stdio transport Quarry uses instead of the SDK's, which drops
 * malformed lines without a word, ends the process when a line passes its
 * 10 MiB buffer, and cannot say when the client closed stdin. Here every
 * line gets an answer: a message that is not JSON is a JSON-RPC parse error
 * (−32700), one that is not a JSON-RPC message an invalid request (−32600),
 * a line over the size bound is refused and skipped, and the server can wait
 * for the calls in flight when stdin ends.
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** Longest line read (bytes); longer ones are answered with an error and skipped. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
const NEWLINE = 10;

type Id = string | number;

/** A JSON-RPC transport over a byte stream of lines and a writer of text. */
export class LineTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /** Resolves when the input ends (the client closed stdin). */
  readonly ended: Promise<void>;
  readonly #input: ReadableStream<Uint8Array>;
  readonly #write: (text: string) => Promise<void>;
  readonly #maxLine: number;
  readonly #inFlight = new Set<Id>();
  #idle = Promise.withResolvers<void>();
  #end = Promise.withResolvers<void>();
  #closed = false;

  constructor(
    input: ReadableStream<Uint8Array>,
    write: (text: string) => Promise<void>,
    maxLineBytes = MAX_LINE_BYTES,
  ) {
    this.#input = input;
    this.#write = write;
    this.#maxLine = maxLineBytes;
    this.ended = this.#end.promise;
    this.#idle.resolve();
  }

  start(): Promise<void> {
    void this.#read().finally(() => this.#end.resolve());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ("id" in message && !("method" in message)) this.#settle(message.id);
    await this.#write(JSON.stringify(message) + "\n");
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }

  /** Resolves once every request read so far has been answered. */
  idle(): Promise<void> {
    return this.#idle.promise;
  }

  #settle(id: Id | undefined): void {
    if (id === undefined || !this.#inFlight.delete(id)) return;
    if (this.#inFlight.size === 0) this.#idle.resolve();
  }

  async #read(): Promise<void> {
    let parts: Uint8Array[] = [];
    let length = 0;
    let skipping = false;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.#input) {
        let from = 0;
        for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
          if (!skipping) {
            parts.push(chunk.subarray(from, nl));
            const line = decoder.decode(join(parts, length + nl - from));
            await this.#line(line);
          }
          parts = [];
          length = 0;
          skipping = false;
          from = nl + 1;
        }
        if (skipping || from === chunk.length) continue;
        parts.push(chunk.slice(from));
        length += chunk.length - from;
        if (length > this.#maxLine) {
          // Answer now; the rest of the line is read and dropped.
          parts = [];
          length = 0;
          skipping = true;
          await this.#fail(null, INVALID_REQUEST, `Message over ${this.#maxLine} bytes`);
        }
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async #line(text: string): Promise<void> {
    const line = text.replace(/\r$/, "");
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return await this.#fail(null, PARSE_ERROR, "Parse error: the line is not JSON");
    }
    const id = idOf(value);
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      return await this.#fail(id, INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message");
    }
    const message = parsed.data;
    const bad = badParams(message);
    if (bad && id !== null) return await this.#fail(id, INVALID_PARAMS, bad);
    if ("method" in message && "id" in message) {
      if (this.#inFlight.size === 0) this.#idle = Promise.withResolvers<void>();
      this.#inFlight.add(message.id);
    }
    this.onmessage?.(message);
  }

  async #fail(id: Id | null, code: number, message: string): Promise<void> {
    await this.#write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n");
  }
}

function join(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function idOf(value: unknown): Id | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** Tool arguments must be an object; the SDK would answer −32603 with a schema dump. */
function badParams(message: JSONRPCMessage): string | undefined {
  if (!("method" in message) || message.method !== "tools/call") return undefined;
  const args = (message.params as { arguments?: unknown } | undefined)?.arguments;
  if (args === undefined || (args !== null && typeof args === "object" && !Array.isArray(args))) {
    return undefined;
  }
  return "Invalid params: tools/call arguments must be an object of named arguments";
}
