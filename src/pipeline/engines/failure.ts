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

/** One line per engine: what happened there and why. */
function cause(a: Attempt): string {
  const what = a.outcome === "cooldown"
    ? `on cool-down${a.until ? ` until ${a.until}` : ""}${a.code ? ` (${a.code})` : ""}`
    : a.outcome === "skipped"
    ? `skipped: ${a.message ?? "not configured"}`
    : `${a.code ?? a.outcome}${a.message ? `: ${a.message}` : ""}`;
  return `${a.engine}: ${what}`;
}

/** Engines that were asked and failed (not skipped, cooling or cancelled). */
function asked(attempts: Attempt[]): Attempt[] {
  return attempts.filter((a) => a.outcome === "error" || a.outcome === "blocked");
}

/** The network is the problem when every engine asked could not be reached at all. */
function networkDown(attempts: Attempt[]): Attempt | undefined {
  const tried = asked(attempts);
  return tried.length > 0 && tried.every((a) => a.unreachable) ? tried[0] : undefined;
}

function retryAfterOf(attempts: Attempt[], now: number): number | undefined {
  const untils = attempts.filter((a) => a.until).map((a) => Date.parse(a.until!));
  return untils.length > 0 ? Math.max(1, Math.ceil((Math.min(...untils) - now) / 1000)) : undefined;
}

/** Keys help when engines block or none could be used; not when the network is down. */
function keyHints(config: Config): string[] {
  const hints: string[] = [];
  if (!config.urls.searxng) {
    hints.push("Set SEARXNG_URL to a SearXNG instance with JSON output enabled");
  }
  if (!config.keys.brave) hints.push("Add BRAVE_API_KEY to use the Brave Search API");
  if (!config.keys.exa) hints.push("Add EXA_API_KEY to use the Exa API");
  return hints;
}

/** Builds the error for a chain where no engine answered. */
export function chainFailure(attempts: Attempt[], config: Config, now: number): EngineChainError {
  const causes = attempts.filter((a) => a.outcome !== "cancelled").map(cause);
  const list = causes.map((c) => `\n- ${c}`).join("");
  const down = networkDown(attempts);
  if (down) {
    return new EngineChainError(
      "UPSTREAM_ERROR",
      `The network is unreachable: no search engine could be reached (first: ${down.unreachable})${list}`,
      attempts,
      {
        suggestions: [
          `Check the network connection (DNS, proxy, firewall): ${down.unreachable} did not answer`,
          "Use --local (`quarry search --local`) to answer from the archive of pages read before",
        ],
      },
    );
  }
  const code = mostTelling(attempts);
  const retryAfter = retryAfterOf(attempts, now);
  const suggestions = attempts.flatMap((a) => a.hint ? [`${a.engine}: ${a.hint}`] : []);
  if (retryAfter !== undefined) {
    const minutes = Math.max(1, Math.ceil(retryAfter / 60));
    suggestions.push(
      `Wait ${minutes} minute${minutes === 1 ? "" : "s"}: ` +
        "blocked engines are skipped until their cool-down ends",
    );
  }
  if (code === "TIMEOUT") suggestions.push("Raise QUARRY_TIMEOUT");
  const blocked = code === "CAPTCHA" || code === "RATE_LIMITED";
  if (blocked || asked(attempts).length === 0 || code === "MISSING_API_KEY") {
    suggestions.push(...keyHints(config));
  }
  if (!blocked && code !== "MISSING_API_KEY") {
    suggestions.push("Try other engines with --engine, or --local to answer from the archive");
  }
  const message = attempts.length === 0
    ? "No search engine is configured"
    : blocked
    ? `Every search engine is blocked or failed:${list}`
    : `No search engine answered:${list}`;
  return new EngineChainError(code, message, attempts, {
    suggestions,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });
}
