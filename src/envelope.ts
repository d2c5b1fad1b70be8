/**
 * The JSON envelope every face returns (DESIGN §4).
 * @module
 */
import { type ErrorCode, type QuarryError, toQuarryError } from "./errors.ts";

/** The error part of a failed envelope. */
export interface EnvelopeError {
  code: ErrorCode;
  message: string;
  suggestions: string[];
  /** Seconds after which a retry may succeed (rate limits, blocks); faces pass it on (Retry-After). */
  retry_after?: number;
}

/** Metadata common to all operations; each operation adds its own fields. */
export type Metadata = Record<string, unknown> & { elapsed_ms?: number };

/** A successful answer. */
export interface SuccessEnvelope<R = unknown> {
  success: true;
  command: string;
  query?: string;
  results: R[];
  metadata: Metadata;
}

/** A failed answer. Per-item results may still be present (e.g. each page's status). */
export interface FailureEnvelope<R = unknown> {
  success: false;
  command: string;
  query?: string;
  error: EnvelopeError;
  results?: R[];
  metadata?: Metadata;
}

/** What every operation returns. */
export type Envelope<R = unknown> = SuccessEnvelope<R> | FailureEnvelope<R>;

/** Builds a failure envelope from anything thrown. */
export function failure<R = unknown>(
  command: string,
  error: unknown,
  extra: { query?: string; results?: R[]; metadata?: Metadata } = {},
): FailureEnvelope<R> {
  const qe = toQuarryError(error);
  return {
    success: false,
    command,
    ...(extra.query === undefined ? {} : { query: extra.query }),
    error: errorBody(qe),
    ...(extra.results === undefined ? {} : { results: extra.results }),
    ...(extra.metadata === undefined ? {} : { metadata: extra.metadata }),
  };
}

/** The public part of a QuarryError. */
export function errorBody(error: QuarryError): EnvelopeError {
  return {
    code: error.code,
    message: error.message,
    suggestions: error.suggestions,
    ...(error.retryAfter === undefined ? {} : { retry_after: error.retryAfter }),
  };
}
