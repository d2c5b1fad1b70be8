/**
 * One HTTP request to a search engine, with the timeout, headers and
 * status-to-error mapping every backend shares.
 * @module
 */
import { QuarryError } from "../../errors.ts";
import type { EngineDeps } from "./types.ts";

/**
 * The engine could not be reached at all (DNS, refused or reset
 * connection): the network, not the engine, is the likely cause.
 */
export class EngineUnreachable extends QuarryError {
  /** Host that could not be reached. */
  readonly host: string;

  constructor(label: string, host: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super("UPSTREAM_ERROR", `Cannot reach ${label} (${host}): ${why}`, {
      suggestions: ["Check the network connection", "Try another engine with --engine"],
      cause,
    });
    this.name = "EngineUnreachable";
    this.host = host;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** What came back, body read as text. */
export interface EngineResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** Options of {@linkcode engineRequest}. */
export interface EngineRequestOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  /**
   * Maps a status before the defaults do (e.g. SearXNG's 403, an API's 401);
   * returning undefined falls through to the defaults.
   */
  onStatus?: (response: EngineResponse) => QuarryError | undefined;
}

const DEFAULT_ACCEPT_LANGUAGE = "en-US,en;q=0.8";
const RETRY_AFTER_SECONDS = /^\d+$/;

function retryAfterSeconds(headers: Headers, now: number): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (RETRY_AFTER_SECONDS.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - now) / 1000));
}

/** The default reading of a failed status: 403 is a block, 429 a rate limit. */
export function statusError(
  label: string,
  res: EngineResponse,
  now: number,
): QuarryError | undefined {
  if (res.status >= 200 && res.status < 300) return undefined;
  const retryAfter = retryAfterSeconds(res.headers, now);
  const extra = retryAfter === undefined ? {} : { retryAfter };
  if (res.status === 429) {
    return new QuarryError("RATE_LIMITED", `${label} is rate limiting requests (HTTP 429)`, {
      suggestions: ["Wait a few minutes", "Raise QUARRY_RATE_LIMIT to space requests out"],
      ...extra,
    });
  }
  if (res.status === 403) {
    return new QuarryError("CAPTCHA", `${label} refused the request (HTTP 403): blocked as a bot`, {
      suggestions: ["Wait before searching again", "Set SEARXNG_URL or an API key"],
      ...extra,
    });
  }
  return new QuarryError("UPSTREAM_ERROR", `${label} answered HTTP ${res.status}`, {
    suggestions: ["Try again later or another engine with --engine"],
    ...extra,
  });
}

/**
 * Sends one request to an engine. Throws `TIMEOUT` after the configured
 * timeout, `UPSTREAM_ERROR` when the engine cannot be reached, and the
 * mapped error for any status outside 2xx.
 */
export async function engineRequest(
  label: string,
  url: string,
  deps: EngineDeps,
  options: EngineRequestOptions = {},
): Promise<EngineResponse> {
  const timeout = AbortSignal.timeout(deps.config.timeoutMs);
  const signal = deps.signal ? AbortSignal.any([timeout, deps.signal]) : timeout;
  let res: EngineResponse;
  try {
    const response = await deps.fetch(url, {
      method: options.method ?? "GET",
      headers: {
        "user-agent": deps.config.userAgent,
        "accept-language": DEFAULT_ACCEPT_LANGUAGE,
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: options.body }),
      redirect: "follow",
      signal,
    });
    res = { status: response.status, headers: response.headers, body: await response.text() };
  } catch (error) {
    if (deps.signal?.aborted) throw deps.signal.reason ?? error;
    if (timeout.aborted) {
      throw new QuarryError(
        "TIMEOUT",
        `${label} did not answer within ${deps.config.timeoutMs} ms`,
        {
          suggestions: ["Raise QUARRY_TIMEOUT", "Try another engine with --engine"],
          cause: error,
        },
      );
    }
    throw new EngineUnreachable(label, hostOf(url), error);
  }
  const mapped = options.onStatus?.(res) ?? statusError(label, res, deps.now());
  if (mapped) throw mapped;
  return res;
}
