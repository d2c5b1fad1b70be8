/**
 * JSON calls to keyed web APIs (Context7, Perplexity): retries on HTTP 429
 * and 5xx with exponential backoff and jitter, honouring `Retry-After`,
 * bounded in total time, and every failure turned into a QuarryError with a
 * code a user can act on — never a crash. Network, clock, sleep and random
 * come in through `deps` so tests drive them.
 * @module
 */
import { QuarryError } from "../../errors.ts";

/** How hard to try. */
export interface RetryConfig {
  /** Attempts in all, the first included. @default {6} */
  maxAttempts: number;
  /** First backoff delay; doubles each retry. @default {500} */
  baseDelayMs: number;
  /** Longest backoff delay (a `Retry-After` may ask for more). @default {10_000} */
  maxDelayMs: number;
  /**
   * No retry starts when waiting for it would end past this much time since
   * the first attempt, so a service that keeps answering 429 fails in well
   * under a minute. @default {45_000}
   */
  totalBudgetMs: number;
  /** Time one attempt may take, body included. @default {30_000} */
  timeoutMs: number;
}

/** Default {@linkcode RetryConfig}. */
export const DEFAULT_RETRY_CONFIG: RetryConfig = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  totalBudgetMs: 45_000,
  timeoutMs: 30_000,
};

/** A keyed service, named in errors and hints. */
export interface ApiService {
  name: string;
  /** Environment variable holding the key. */
  keyEnv: string;
  /** Where a user gets a key. */
  keyUrl: string;
}

/** What the caller needs from the operation context. */
export interface HttpDeps {
  fetch: typeof globalThis.fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  signal?: AbortSignal;
}

/** One JSON request. */
export interface JsonRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Statuses other than 2xx handed back with their JSON body (e.g. 404). */
  accept?: readonly number[];
}

/** A parsed JSON answer. */
export interface JsonResponse {
  status: number;
  data: unknown;
  headers: Headers;
  attempts: number;
}

const MAX_MESSAGE_CHARS = 200;
const RETRY_AFTER_SECONDS = /^\s*\d+(?:\.\d+)?\s*$/;

/** Throws MISSING_API_KEY, saying where to get one, when the key is unset. */
export function requireKey(key: string | undefined, service: ApiService): string {
  if (key) return key;
  throw new QuarryError(
    "MISSING_API_KEY",
    `${service.name} needs an API key in ${service.keyEnv}`,
    {
      suggestions: [`Get a key at ${service.keyUrl} and set ${service.keyEnv}`],
    },
  );
}

/** `Retry-After` (seconds or an HTTP date) as milliseconds from `now`, when present. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  if (RETRY_AFTER_SECONDS.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Backoff before retry `n` (1-based): half fixed, half random, so clients spread out. */
export function backoffMs(n: number, config: RetryConfig, random: () => number): number {
  const ceiling = Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** (n - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** The human message of an API's error body, shortened. */
export function upstreamMessage(data: unknown): string | undefined {
  const d = data as Record<string, unknown> | null;
  const nested = (d?.error as Record<string, unknown> | undefined)?.message;
  const text = [d?.message, nested, d?.error, d?.detail].find((v) => typeof v === "string");
  return typeof text === "string" ? text.slice(0, MAX_MESSAGE_CHARS) : undefined;
}

function parseJson(text: string): { ok: true; data: unknown } | { ok: false } {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === "TimeoutError";
}

/** Sends one attempt; a thrown error here is a network failure or a timeout. */
async function attempt(deps: HttpDeps, request: JsonRequest, timeoutMs: number) {
  const signals = [AbortSignal.timeout(timeoutMs), ...(deps.signal ? [deps.signal] : [])];
  const res = await deps.fetch(request.url, {
    method: request.method ?? "GET",
    headers: {
      accept: "application/json",
      ...(request.body === undefined ? {} : { "content-type": "application/json" }),
      ...request.headers,
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.any(signals),
  });
  return { res, text: await res.text() };
}

/**
 * Calls a JSON API with retries. Resolves with the parsed body of a 2xx (or
 * `accept`ed) answer; otherwise rejects with a QuarryError: MISSING_API_KEY
 * (401/403: key rejected), RATE_LIMITED (429 after retries), TIMEOUT,
 * UPSTREAM_ERROR (5xx after retries, other statuses, unreachable, malformed
 * JSON).
 */
export async function requestJson(
  deps: HttpDeps,
  service: ApiService,
  request: JsonRequest,
  config: RetryConfig = DEFAULT_RETRY_CONFIG,
): Promise<JsonResponse> {
  const started = deps.now();
  for (let n = 1;; n++) {
    let failure: QuarryError;
    let retryAfterMs: number | undefined;
    try {
      const { res, text } = await attempt(deps, request, config.timeoutMs);
      const parsed = parseJson(text);
      const detail = parsed.ok ? upstreamMessage(parsed.data) : undefined;
      const said = `HTTP ${res.status}${detail ? `: ${detail}` : ""}`;
      if (res.ok || request.accept?.includes(res.status)) {
        if (!parsed.ok) {
          throw new QuarryError("UPSTREAM_ERROR", `${service.name} sent malformed JSON`, {
            suggestions: ["Try again later; the service may be having trouble"],
          });
        }
        return { status: res.status, data: parsed.data, headers: res.headers, attempts: n };
      }
      if (res.status === 401 || res.status === 403) {
        throw new QuarryError("MISSING_API_KEY", `${service.name} rejected the API key (${said})`, {
          suggestions: [`Check ${service.keyEnv}; get a valid key at ${service.keyUrl}`],
        });
      }
      if (res.status !== 429 && res.status < 500) {
        throw new QuarryError("UPSTREAM_ERROR", `${service.name} answered ${said}`, {
          suggestions: ["Check the input; this request will not succeed as it is"],
        });
      }
      retryAfterMs = parseRetryAfter(res.headers.get("retry-after"), deps.now());
      const retryAfter = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
      failure = res.status === 429
        ? new QuarryError("RATE_LIMITED", `${service.name} is rate limiting requests (${said})`, {
          suggestions: ["Wait a minute and try again", "Check the plan limits of your API key"],
          ...(retryAfter === undefined ? {} : { retryAfter }),
        })
        : new QuarryError("UPSTREAM_ERROR", `${service.name} failed (${said})`, {
          suggestions: ["Try again later; the service is having trouble"],
        });
    } catch (error) {
      if (error instanceof QuarryError) throw error;
      if (deps.signal?.aborted) throw deps.signal.reason ?? error;
      if (isTimeout(error)) {
        throw new QuarryError(
          "TIMEOUT",
          `${service.name} did not answer within ${config.timeoutMs / 1000}s`,
          { suggestions: ["Raise --timeout", "Try again later"], cause: error },
        );
      }
      failure = new QuarryError("UPSTREAM_ERROR", `Cannot reach ${service.name}`, {
        suggestions: ["Check the network connection and the service's base URL"],
        cause: error,
      });
    }
    const delay = retryAfterMs ?? backoffMs(n, config, deps.random);
    const overBudget = deps.now() - started + delay > config.totalBudgetMs;
    if (n >= config.maxAttempts || overBudget) throw failure;
    await deps.sleep(delay, deps.signal);
  }
}
