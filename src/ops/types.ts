/**
 * What an operation is: one definition from which the CLI subcommand, the
 * HTTP route and the MCP tool are generated.
 * @module
 */
import type { z } from "zod";
import type { Config } from "../config.ts";
import type { ResolveDns } from "../pipeline/guard.ts";
import type { ExtractFn } from "../pipeline/extract/pool.ts";
import type { PinnedFetch } from "../pipeline/pinned.ts";
import type { ByteBudget } from "../pipeline/budget.ts";
import type { LazyBrowser } from "../pipeline/browser/lazy.ts";
import type { Envelope } from "../envelope.ts";
import type { Stores } from "../store/stores.ts";

/** Everything an operation may touch outside itself, passed in so tests can drive it. */
export interface OpContext {
  config: Config;
  fetch: typeof globalThis.fetch;
  resolveDns: ResolveDns;
  /** Fetches from an address already checked (no second DNS lookup); `fetch` when absent. */
  connect?: PinnedFetch | undefined;
  /** Body bytes in flight across every read of the process (a server shares one). */
  budget?: ByteBudget | undefined;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Waits; injectable so tests do not sleep. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  stores: Stores;
  /** One line of progress (stderr on a terminal, nowhere otherwise). */
  progress: (line: string) => void;
  /** Aborts the whole operation (client gone, Ctrl-C). */
  signal?: AbortSignal;
  /** Extracts pages off the event loop (servers pass a worker pool); inline when absent. */
  extract?: ExtractFn;
  /**
   * Folders `archive index` may read under: set by servers (`serve --index`,
   * `QUARRY_INDEX_ROOTS`), so a client cannot index any file; the CLI leaves
   * it unset (the user names their own folders).
   */
  indexRoots?: readonly string[] | undefined;
  /** The browser that renders JavaScript pages; absent when `QUARRY_BROWSER_URL` is unset. */
  browser?: LazyBrowser;
}

/** MCP tool behaviour hints. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A positional CLI argument, taken from a field of the input schema. */
export interface Positional {
  field: string;
  /** Takes every remaining argument (the field is an array). */
  variadic?: boolean;
}

/** One operation, defined once. */
export interface Operation<S extends z.ZodObject = z.ZodObject> {
  /** Op name used in the envelope's `command`. */
  name: string;
  /** CLI words, e.g. `["archive", "search"]`. */
  command: string[];
  /** One line for `--help`. */
  summary: string;
  /** For a model: when to use it, what it returns, limits. */
  description: string;
  input: S;
  positionals?: Positional[];
  /** Short CLI flags, e.g. `{ count: "n" }`. */
  short?: Record<string, string>;
  /** HTTP route; absent when the op has none. */
  http?: { method: "GET" | "POST" | "DELETE"; path: string };
  /** MCP tool; absent when the op has none. */
  mcp?: { tool: string; title: string; annotations: ToolAnnotations };
  run(ctx: OpContext, input: z.infer<S>): Promise<Envelope>;
  /** Markdown/text report for the CLI without `--json`. */
  render?(envelope: Envelope, input: z.infer<S>): string;
}

/** Keeps the schema's type when defining an op. */
export function defineOp<S extends z.ZodObject>(op: Operation<S>): Operation<S> {
  return op;
}
