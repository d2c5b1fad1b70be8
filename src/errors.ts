/**
 * One error type for the whole program. Each face maps a code once: to an
 * exit code (CLI), an HTTP status (API) or an `isError` result (MCP).
 * @module
 */

/** Every error code Quarry reports (DESIGN §4). */
export const ERROR_CODES = [
  "BAD_INPUT",
  "NOT_FOUND",
  "TIMEOUT",
  "UPSTREAM_ERROR",
  "RATE_LIMITED",
  "CAPTCHA",
  "MISSING_API_KEY",
  "LIBRARY_NOT_FOUND",
  "PERMISSION_DENIED",
  "INTERNAL",
] as const;

/** A Quarry error code. */
export type ErrorCode = typeof ERROR_CODES[number];

/** Options of {@linkcode QuarryError}. */
export interface QuarryErrorOptions {
  /** What the user can do about it. @default {[]} */
  suggestions?: string[];
  /** Seconds after which a retry may succeed (rate limits, blocks). */
  retryAfter?: number;
  /** The underlying error, kept for diagnostics but never shown to users. */
  cause?: unknown;
}

/**
 * An error with a code and suggestions, safe to show to a user.
 *
 * @example
 * ```ts
 * throw new QuarryError("BAD_INPUT", 'Cannot fetch "file:///etc": only http(s) URLs', {
 *   suggestions: ["Pass an http:// or https:// URL"],
 * });
 * ```
 */
export class QuarryError extends Error {
  readonly code: ErrorCode;
  readonly suggestions: string[];
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: QuarryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "QuarryError";
    this.code = code;
    this.suggestions = options.suggestions ?? [];
    this.retryAfter = options.retryAfter;
  }
}

/** Exit code of the CLI for each error code: 2 is bad usage, 1 any other failure. */
export function exitCodeFor(code: ErrorCode): number {
  return code === "BAD_INPUT" ? 2 : 1;
}

/** HTTP status for each error code. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  BAD_INPUT: 400,
  NOT_FOUND: 404,
  TIMEOUT: 504,
  UPSTREAM_ERROR: 502,
  RATE_LIMITED: 429,
  CAPTCHA: 503,
  MISSING_API_KEY: 424,
  LIBRARY_NOT_FOUND: 404,
  PERMISSION_DENIED: 403,
  INTERNAL: 500,
};

/**
 * Turns anything thrown into a {@linkcode QuarryError}. Unknown errors become
 * `INTERNAL` with a generic message: internals are never shown to users.
 */
export function toQuarryError(error: unknown): QuarryError {
  if (error instanceof QuarryError) return error;
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return new QuarryError("PERMISSION_DENIED", (error as Error).message, {
      suggestions: [
        "Run Quarry through `deno task quarry` or the compiled binary, which carry the needed permissions",
        "Point QUARRY_HOME at a directory Quarry may write",
      ],
      cause: error,
    });
  }
  if (
    error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")
  ) {
    return new QuarryError("TIMEOUT", "The operation timed out", {
      suggestions: ["Raise --timeout (fetch, search, docs, deep) or QUARRY_TIMEOUT"],
      cause: error,
    });
  }
  return new QuarryError("INTERNAL", "Internal error", {
    suggestions: ["Run again with QUARRY_DEBUG=1 to see the stack, and report the issue"],
    cause: error,
  });
}

/** Longest cause line printed; the stack is for QUARRY_DEBUG=1. */
const CAUSE_CHARS = 300;

/**
 * What lies behind an `INTERNAL` error, for stderr: one short line, or the
 * whole stack when `debug` (QUARRY_DEBUG=1). Empty for other errors, whose
 * message already says what happened.
 *
 * @example
 * ```ts
 * causeText(toQuarryError(new TypeError("x is undefined")), false); // "cause: TypeError: x is undefined"
 * ```
 */
export function causeText(error: QuarryError, debug: boolean): string {
  if (error.code !== "INTERNAL" || error.cause === undefined) return "";
  const cause = error.cause;
  if (debug) return cause instanceof Error ? cause.stack ?? String(cause) : String(cause);
  const line = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  const first = line.split("\n")[0]!;
  return `cause: ${first.length > CAUSE_CHARS ? `${first.slice(0, CAUSE_CHARS)}…` : first}`;
}
