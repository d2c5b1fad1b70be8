/**
 * Input fields shared by several operations, defined once so every face
 * describes them the same way.
 * @module
 */
import { z } from "zod";
import { type DurationBounds, durationSchema } from "../config.ts";

/**
 * A duration such as `500ms`, `8s`, `15m` (a bare number is seconds), read
 * once to milliseconds; zero and anything over `bounds` are bad input.
 */
export function durationField(description: string, bounds: DurationBounds = {}) {
  return durationSchema(bounds).describe(description);
}

/** `--format md|text`: how page content is rendered. */
export const formatField = z.enum(["md", "text"]).default("md").describe(
  "How page content is rendered: Markdown (md) or plain text",
);

/** `--start N`: first character of the content to return (paging through long pages). */
export const startField = z.number().int().min(0).default(0).describe(
  "First character of the content to return, to page through long pages",
);

/** `--max N`: most characters of content to return per page. */
export const maxField = z.number().int().positive().max(1_000_000).optional().describe(
  "Most characters of content to return for each page (default: all)",
);

/** `--timeout D`: per-page fetch timeout. */
export const timeoutField = durationField("Timeout for each page, e.g. 8s or 500ms (default 8s)")
  .optional();

/** `--budget CHARS`: excerpt characters per page. */
export const budgetField = z.number().int().positive().max(100_000).default(3000).describe(
  "Characters of excerpts for each page",
);

/** `--max-tokens N`: token budget for the whole answer (exact counts). */
export const maxTokensField = z.number().int().positive().max(200_000).optional().describe(
  "Token budget for the whole answer, counted exactly (overrides character budgets)",
);

/** `--diagnostics`: report dropped candidates and timings. */
export const diagnosticsField = z.boolean().default(false).describe(
  "Add diagnostics (dropped candidates, timings) to the metadata",
);
