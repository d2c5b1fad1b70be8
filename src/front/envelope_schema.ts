/**
 * The JSON envelope (DESIGN §4) as a zod schema, so the HTTP face can
 * describe its responses in OpenAPI and the MCP face can declare the
 * `outputSchema` of every tool from one definition.
 * @module
 */
import { z } from "zod";
import { ERROR_CODES } from "../errors.ts";
import { PAGE_STATUSES } from "../pipeline/types.ts";

/** Statuses a page in a result can have (`not_modified` never leaves the pipeline). */
export const pageStatusSchema = z.enum(PAGE_STATUSES.filter((s) => s !== "not_modified")).describe(
  "What became of one page: ok, or why it could not be read (unreadable: a document that " +
    "could not be parsed, e.g. an encrypted or corrupt PDF)",
);

/** The error part of a failed envelope. */
export const envelopeErrorSchema = z.object({
  code: z.enum(ERROR_CODES).describe("Error code; decides the HTTP status"),
  message: z.string().describe("What went wrong, for a person or a model"),
  suggestions: z.array(z.string()).describe("What to try next"),
  retry_after: z.number().optional().describe("Seconds after which a retry may succeed"),
});

/** Where one engine ranked a result. */
export const engineRankSchema = z.object({
  engine: z.string().describe("Engine that returned the result"),
  rank: z.number().int().describe("Its rank there, from 1"),
});

/**
 * One search result as `links` returns it (and `search` before reading):
 * with rank fusion, `engines` lists every engine that returned it.
 */
export const searchResultSchema = z.object({
  url: z.string(),
  title: z.string(),
  snippet: z.string(),
  engine: z.string().describe("The engine whose copy of the result is shown"),
  rank: z.number().int().describe("Rank in the answer, from 1"),
  published: z.string().optional().describe("Date shown by the engine, YYYY-MM-DD"),
  engines: z.array(engineRankSchema).describe(
    "Every engine that returned the result, with its rank",
  ),
});

/**
 * Every operation's answer. Results and metadata differ per operation, so
 * they are open here; `success` tells which of `results` or `error` to read.
 */
export const envelopeSchema = z.looseObject({
  success: z.boolean().describe("true when the operation answered"),
  command: z.string().describe("The operation that answered"),
  query: z.string().optional().describe("The query, for operations that take one"),
  results: z.array(z.unknown()).optional().describe(
    "One item per result; a failed batch may still list each item with its status",
  ),
  metadata: z.record(z.string(), z.unknown()).optional().describe(
    "Counts, timings, cache and budget figures",
  ),
  error: envelopeErrorSchema.optional().describe("Present when success is false"),
});
