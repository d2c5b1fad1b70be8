/**
 * Input fields shared by several operations, defined once so every face
 * describes them the same way.
 * @module
 */
import { z } from "zod";
import { type DurationBounds, readDuration } from "../config.ts";
import { QuarryError } from "../errors.ts";
import type { RenderMode } from "../pipeline/render_step.ts";
import type { OpContext } from "./types.ts";

/**
 * A duration field: text in, milliseconds out, bounds checked once where the
 * input is read. Every operation's duration option and every duration
 * variable goes through it.
 *
 * @example
 * ```ts
 * durationSchema().parse("2s"); // 2000
 * ```
 */
export function durationSchema(bounds: DurationBounds = {}) {
  return z.string().transform((text, ctx) => {
    const read = readDuration(text, bounds);
    if ("ms" in read) return read.ms;
    ctx.addIssue({ code: "custom", message: `"${text}": ${read.error}` });
    return z.NEVER;
  });
}

/**
 * A duration such as `500ms`, `8s`, `15m` (a bare number is seconds), read
 * once to milliseconds; zero and anything over `bounds` are bad input.
 */
export function durationField(description: string, bounds: DurationBounds = {}) {
  return durationSchema(bounds).describe(description);
}

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

/** `--deadline D`: limit for the whole batch of pages. */
export const deadlineField = durationField(
  "Limit for reading all pages, e.g. 40s (default: follows --timeout)",
).optional();

/**
 * Another name for a field, as other tools spell it (mcp-server-fetch's
 * `url`, `start_index`, `max_length`). Agents may send either; the op folds
 * it into the field it stands for. The CLI and the README show only the field.
 */
export function aliasField<T extends z.ZodType>(of: string, schema: T): T {
  return schema.meta({ aliasOf: of });
}

/** `--budget CHARS`: excerpt characters per page. */
export const budgetField = z.number().int().positive().max(100_000).default(3000).describe(
  "Characters of excerpts for each page",
);

/** `--max-tokens N`: token budget for the whole answer (exact counts). */
export const maxTokensField = z.number().int().positive().max(200_000).optional().describe(
  "Token budget for the whole answer, counted exactly (overrides character budgets)",
);

/** `--render auto|always|never`: when pages are rendered in the browser. */
export const renderField = z.enum(["auto", "always", "never"]).default("auto").describe(
  "Render pages in a headless browser (QUARRY_BROWSER_URL): auto renders pages that come back " +
    "empty or as a JavaScript shell, always renders every HTML page, never renders none",
);

/** `--diagnostics`: report dropped candidates and timings. */
export const diagnosticsField = z.boolean().default(false).describe(
  "Add diagnostics (dropped candidates, timings) to the metadata",
);

/** `--render always` without a browser is bad usage, said before anything is fetched. */
export function requireBrowser(ctx: OpContext, mode: RenderMode): void {
  if (mode !== "always" || ctx.browser) return;
  throw new QuarryError("BAD_INPUT", "--render always needs a browser, and none is configured", {
    suggestions: [
      "Start one: chromium --headless --remote-debugging-port=9222",
      "Then set QUARRY_BROWSER_URL=http://127.0.0.1:9222",
    ],
  });
}
/** `--robots`: obey robots.txt (RFC 9309) for the product token Quarry. */
export const robotsField = z.boolean().default(false).describe(
  "Obey robots.txt: pages it disallows for Quarry are not read (also QUARRY_ROBOTS=1)",
);
