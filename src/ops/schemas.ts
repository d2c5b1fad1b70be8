/**
 * Input fields shared by several operations, defined once so every face
 * describes them the same way.
 * @module
 */
import { z } from "zod";
import { QuarryError } from "../errors.ts";
import type { RenderMode } from "../pipeline/render_step.ts";
import type { OpContext } from "./types.ts";

const DURATION_TEXT = /^\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)?$/;

/** A duration such as `500ms`, `8s`, `15m`; a bare number is seconds. */
export function durationField(description: string) {
  return z.string().regex(DURATION_TEXT, "a duration like 500ms, 8s, 15m or 1h").describe(
    description,
  );
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
