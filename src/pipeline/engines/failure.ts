/**
 * The error when no engine could answer: the most telling code of all
 * attempts, and what the user can do about it.
 * @module
 */
import type { Config } from "../../config.ts";
import { type ErrorCode, QuarryError } from "../../errors.ts";
import type { Attempt } from "./types.ts";

/** A chain failure that keeps every attempt, for the envelope's metadata. */
export class EngineChainError extends QuarryError {
  readonly attempts: Attempt[];

  constructor(
    code: ErrorCode,
    message: string,
    attempts: Attempt[],
    options: { suggestions: string[]; retryAfter?: number },
  ) {
    super(code, message, options);
    this.name = "EngineChainError";
    this.attempts = attempts;
  }
}

const MINUTE_MS = 60_000;

/** Blocks say most (the user must wait or change engines), then rate limits, then the rest. */
function mostTelling(attempts: Attempt[]): ErrorCode {
  const codes = attempts.map((a) => a.code).filter((c): c is ErrorCode => c !== undefined);
  if (codes.includes("CAPTCHA")) return "CAPTCHA";
  if (codes.includes("RATE_LIMITED")) return "RATE_LIMITED";
  if (codes.length > 0 && codes.every((c) => c === "TIMEOUT")) return "TIMEOUT";
  if (codes.includes("MISSING_API_KEY")) return "MISSING_API_KEY";
  if (codes.length > 0) return "UPSTREAM_ERROR";
  // Nothing was even tried: every engine was skipped for want of a key or URL.
  return attempts.some((a) => a.message?.includes("KEY")) ? "MISSING_API_KEY" : "BAD_INPUT";
}

function summary(a: Attempt): string {
  const what = a.outcome === "cooldown"
    ? `on cool-down (${a.code})`
    : a.outcome === "skipped"
    ? "skipped"
    : a.code ?? a.outcome;
  return `${a.engine} ${what}`;
}

/** Builds the error for a chain where no engine answered. */
export function chainFailure(attempts: Attempt[], config: Config, now: number): EngineChainError {
  const code = mostTelling(attempts);
  const suggestions: string[] = [];
  const untils = attempts.filter((a) => a.until).map((a) => Date.parse(a.until!));
  // A retry makes sense once the first cool-down ends.
  const retryAfter = untils.length > 0
    ? Math.max(1, Math.ceil((Math.min(...untils) - now) / 1000))
    : undefined;
  if (untils.length > 0) {
    const minutes = Math.max(1, Math.ceil((Math.min(...untils) - now) / MINUTE_MS));
    suggestions.push(
      `Wait ${minutes} minute${
        minutes === 1 ? "" : "s"
      }: blocked engines are skipped until their cool-down ends`,
    );
  }
  if (!config.urls.searxng) {
    suggestions.push("Set SEARXNG_URL to a SearXNG instance with JSON output enabled");
  }
  if (!config.keys.brave) suggestions.push("Add BRAVE_API_KEY to use the Brave Search API");
  if (!config.keys.exa) suggestions.push("Add EXA_API_KEY to use the Exa API");
  if (code === "TIMEOUT") suggestions.push("Raise QUARRY_TIMEOUT");
  const message = attempts.length === 0
    ? "No search engine is configured"
    : code === "CAPTCHA" || code === "RATE_LIMITED"
    ? `Every search engine is blocked or failed: ${attempts.map(summary).join(", ")}`
    : `No search engine answered: ${attempts.map(summary).join(", ")}`;
  return new EngineChainError(code, message, attempts, {
    suggestions,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });
}
