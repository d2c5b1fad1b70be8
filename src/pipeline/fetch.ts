/**
 * Fetching: every URL at once, each under its own timeout and one overall
 * deadline, a few at a time per host, redirects followed by hand so the SSRF
 * guard sees every hop, bodies read as streams under a size cap, and a
 * status with a human reason for every page. Nothing here throws: one bad
 * page never fails the batch.
 * @module
 */
import { DEFAULT_USER_AGENT } from "../config.ts";
import { QuarryError } from "../errors.ts";
import type { ResolveDns } from "./guard.ts";
import { decodeBody } from "./charset.ts";
import { checkUrl, guardHost } from "./guard.ts";
import { isPdfBytes } from "./extract/pdf_magic.ts";
import type { FetchResult, PageStatus, Validators } from "./types.ts";

/** How {@linkcode fetchAll} fetches. */
export interface FetchOptions {
  /** Per-URL limit covering every redirect hop and the whole body. @default {8000} */
  timeoutMs: number;
  /** Limit for the whole batch. @default {batchDeadline(timeoutMs)} */
  deadlineMs?: number | undefined;
  /** Requests in flight to one host name at a time. @default {4} */
  perHostLimit: number;
  /** @default {DEFAULT_USER_AGENT} */
  userAgent: string;
  /** Largest body read, counted after decompression. @default {10485760} */
  maxBytes: number;
  /** Largest PDF read (PDFs are often larger than pages). @default {26214400} */
  pdfMaxBytes: number;
  /** @default {5} */
  maxRedirects: number;
  /**
   * A body over `maxBytes`: `refuse` it (`too_large`), or `truncate` it and
   * keep what fits (robots.txt: RFC 9309 reads the first 500 KiB). @default {"refuse"}
   */
  overflow?: "refuse" | "truncate";
  /** Lifts the SSRF guard (tests, local use). @default {false} */
  allowPrivateNetwork: boolean;
  /** Validators from earlier fetches, by URL: sent as a conditional request. */
  validators?: Record<string, Validators> | undefined;
  /** Aborts the whole batch (client gone, Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** Called as each URL lands, with its index in the batch (progress lines, pipelined work). */
  onResult?: ((result: FetchResult, index: number) => void) | undefined;
}

/** Defaults of {@linkcode FetchOptions} (DESIGN §7). */
export const DEFAULT_FETCH_OPTIONS: Readonly<FetchOptions> = {
  timeoutMs: 8000,
  perHostLimit: 4,
  userAgent: DEFAULT_USER_AGENT,
  maxBytes: 10 * 1024 * 1024,
  pdfMaxBytes: 25 * 1024 * 1024,
  maxRedirects: 5,
  allowPrivateNetwork: false,
};

/** Room a batch deadline leaves above the per-page timeout. */
export const DEADLINE_MARGIN_MS = 2000;

/**
 * The overall deadline of a batch: the one asked for, else one that follows
 * the per-page timeout — twice it (a page may wait behind others on its host)
 * plus two margins, so the default 8 s timeout keeps its 20 s deadline and a
 * 30 s timeout is never cut at 20 s.
 *
 * @example
 * ```ts
 * batchDeadline(8000); // 20000
 * batchDeadline(30_000); // 64000
 * batchDeadline(30_000, 45_000); // 45000
 * ```
 */
export function batchDeadline(timeoutMs: number, deadlineMs?: number): number {
  return deadlineMs ?? 2 * timeoutMs + 2 * DEADLINE_MARGIN_MS;
}

/** The I/O fetching needs, passed in so tests can drive it. */
export interface FetchDeps {
  fetch: typeof globalThis.fetch;
  resolveDns: ResolveDns;
  /** Milliseconds since the epoch. */
  now: () => number;
}

const ACCEPT =
  "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/pdf;q=0.8,*/*;q=0.1";
/** Media types of PDF documents. */
const PDF_TYPES = new Set(["application/pdf", "application/x-pdf", "application/acrobat"]);
/** Generic binary types: read (under the PDF cap) and kept only when the bytes are a PDF. */
const BINARY_TYPES = new Set(["application/octet-stream", "binary/octet-stream"]);
/** Content types Quarry reads as text; PDFs are read as bytes; anything else is `not_html`. */
export const READABLE_TYPES: ReadonlySet<string> = new Set([
  "text/html",
  "application/xhtml+xml",
  "text/plain",
  "text/markdown",
  "text/x-markdown",
  "text/xml",
  "application/xml",
]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses whose body may be a bot challenge rather than a plain error. */
const CHALLENGE_STATUSES = new Set([403, 429, 503]);
/** Enough of an error page to recognise a CAPTCHA. */
const ERROR_SNIFF_BYTES = 64 * 1024;
/** Bytes checked for NUL when a body comes without a Content-Type. */
const BINARY_SNIFF_BYTES = 1024;
/**
 * Signs of a bot challenge safe to trust on any page. Not `challenge-platform`:
 * Cloudflare injects that script into ordinary pages too.
 */
const CHALLENGE_MARKERS =
  /<title>\s*(?:just a moment|attention required|security check|are you a (?:robot|human)|verify you are human)|_cf_chl_opt|cf-challenge|id=["']challenge-form|captcha-delivery\.com/i;
/** Weaker signs, trusted only on 403/429/503 answers. */
const CAPTCHA_WORDS = /captcha|turnstile/i;
const LOOKS_LIKE_HTML = /^\s*(?:<!doctype html|<html|<head|<body|<!--)/i;
/** Raw network errors → words a user understands. */
const NETWORK_REASONS: readonly [RegExp, string][] = [
  [/dns error|lookup address|name or service not known|no such host/i, "Cannot resolve host"],
  [/connection refused/i, "Connection refused by"],
  [
    /reset|error reading a body|unexpected eof|connection closed|broken pipe/i,
    "Connection reset by",
  ],
  [/certificate|tls|ssl|handshake/i, "TLS handshake failed with"],
  [/blocked/i, "Port blocked for"],
];

type Outcome = Omit<FetchResult, "url" | "finalUrl" | "redirects" | "elapsedMs">;

/** What one URL's fetch has seen so far, kept for the result even when it fails. */
interface Trail {
  finalUrl: string;
  redirects: string[];
  phase: "before the server answered" | "while reading the body";
  /** The per-URL timeout, started when the first request may go out. */
  timeout?: AbortSignal;
  /** Status of the last response, kept when its body then fails. */
  httpStatus?: number;
}

interface Run {
  options: FetchOptions & { deadlineMs: number };
  deps: FetchDeps;
  /** The deadline and the caller's signal, shared by every URL. */
  batch: AbortSignal;
  deadline: AbortSignal;
  slots: HostSlots;
}

/**
 * Fetches every URL at once. Results come back in the order of `urls`, one
 * per URL, each with a status and, for anything but `ok`, a human reason.
 *
 * @example
 * ```ts
 * const [page] = await fetchAll(["https://example.com/"], { timeoutMs: 5000 }, {
 *   fetch, resolveDns: systemResolveDns, now: Date.now,
 * });
 * page.status; // "ok", "timeout", "private_address", …
 * ```
 */
export async function fetchAll(
  urls: string[],
  options: Partial<FetchOptions>,
  deps: FetchDeps,
): Promise<FetchResult[]> {
  const merged: FetchOptions = { ...DEFAULT_FETCH_OPTIONS, ...options };
  const opts = { ...merged, deadlineMs: batchDeadline(merged.timeoutMs, merged.deadlineMs) };
  const deadline = AbortSignal.timeout(opts.deadlineMs);
  const batch = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
  const run: Run = { options: opts, deps, batch, deadline, slots: hostSlots(opts.perHostLimit) };
  const settled = await Promise.allSettled(urls.map(async (url, i) => {
    const result = await fetchOne(url, run);
    try {
      opts.onResult?.(result, i);
    } catch {
      // a failing progress printer must not lose the page
    }
    return result;
  }));
  return settled.map((s, i): FetchResult =>
    s.status === "fulfilled" ? s.value : {
      url: urls[i] ?? "",
      finalUrl: urls[i] ?? "",
      status: "http_error",
      reason: "Internal error while fetching",
      redirects: [],
      elapsedMs: 0,
    }
  );
}

async function fetchOne(url: string, run: Run): Promise<FetchResult> {
  const started = run.deps.now();
  const trail: Trail = { finalUrl: url, redirects: [], phase: "before the server answered" };
  let outcome: Outcome;
  try {
    outcome = await follow(checkUrl(url), trail, run);
  } catch (error) {
    outcome = failure(error, trail, run);
  }
  const { finalUrl, redirects, httpStatus } = trail;
  const status = httpStatus === undefined ? {} : { httpStatus };
  return { url, finalUrl, redirects, ...status, ...outcome, elapsedMs: run.deps.now() - started };
}

/** Follows redirects by hand so the guard checks every hop. */
async function follow(start: URL, trail: Trail, run: Run): Promise<Outcome> {
  const { options, deps } = run;
  const seen = new Set([withoutHash(start)]);
  for (let current = start;;) {
    const release = await run.slots.acquire(current.hostname, run.batch);
    try {
      // The clock starts once a request may go out, not while queued behind a busy host.
      trail.timeout ??= AbortSignal.timeout(options.timeoutMs);
      const signal = AbortSignal.any([trail.timeout, run.batch]);
      if (!options.allowPrivateNetwork) {
        const verdict = await untilAborted(guardHost(current, deps.resolveDns), signal);
        if (!verdict.ok) return { status: verdict.status, reason: verdict.reason };
      }
      trail.phase = "before the server answered";
      const res = await deps.fetch(current, {
        signal,
        redirect: "manual",
        headers: requestHeaders(options, trail.finalUrl, start.href),
      });
      trail.httpStatus = res.status;
      if (!REDIRECT_STATUSES.has(res.status)) {
        return await readResponse(res, trail, signal, options);
      }
      await res.body?.cancel().catch(() => {});
      const next = nextHop(res, current, seen, trail, options);
      if (!(next instanceof URL)) return next;
      current = next;
    } finally {
      release();
    }
  }
}

function nextHop(
  res: Response,
  current: URL,
  seen: Set<string>,
  trail: Trail,
  options: FetchOptions,
): URL | Outcome {
  const httpStatus = res.status;
  const location = res.headers.get("location");
  if (!location) {
    return {
      status: "http_error",
      httpStatus,
      reason: `HTTP ${httpStatus} redirect without a Location`,
    };
  }
  let next: URL;
  try {
    next = checkUrl(new URL(location, current).href);
  } catch (error) {
    const why = error instanceof QuarryError ? error.message : `"${location}" is not a valid URL`;
    return { status: "blocked", httpStatus, reason: `Redirect refused: ${why}` };
  }
  trail.finalUrl = next.href;
  trail.redirects.push(next.href);
  if (seen.has(withoutHash(next))) {
    return {
      status: "http_error",
      httpStatus,
      reason: `Redirect loop: ${next.href} was already visited`,
    };
  }
  if (trail.redirects.length > options.maxRedirects) {
    return {
      status: "http_error",
      httpStatus,
      reason: `More than ${options.maxRedirects} redirects`,
    };
  }
  seen.add(withoutHash(next));
  return next;
}

/** DNS lookups take no signal: stop waiting for them when the page is given up. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function withoutHash(url: URL): string {
  return url.href.replace(/#.*$/, "");
}

function requestHeaders(options: FetchOptions, hop: string, asked: string): Headers {
  const headers = new Headers({ "user-agent": options.userAgent, accept: ACCEPT });
  const validators = options.validators?.[hop] ?? options.validators?.[asked];
  if (validators?.etag) headers.set("if-none-match", validators.etag);
  if (validators?.lastModified) headers.set("if-modified-since", validators.lastModified);
  return headers;
}

/** Everything about a final (non-redirect) response, body included. */
async function readResponse(
  res: Response,
  trail: Trail,
  signal: AbortSignal,
  options: FetchOptions,
): Promise<Outcome> {
  const header = res.headers.get("content-type");
  const contentType = header?.split(";")[0]?.trim().toLowerCase() || undefined;
  const validators = validatorsOf(res.headers);
  const base: Outcome = {
    status: "ok",
    httpStatus: res.status,
    ...(contentType ? { contentType } : {}),
    ...(validators ? { validators } : {}),
  };
  const refuse = async (status: PageStatus, reason: string): Promise<Outcome> => {
    await res.body?.cancel().catch(() => {});
    return { ...base, status, reason };
  };
  if (res.status === 304) return refuse("not_modified", "Not modified since the last fetch");
  if (res.headers.get("cf-mitigated") === "challenge") {
    return refuse("captcha", `Bot challenge (HTTP ${res.status}) instead of the page`);
  }
  trail.phase = "while reading the body";
  if (res.status < 200 || res.status > 299) return errorOutcome(res, base, signal);
  const length = Number(res.headers.get("content-length") ?? Number.NaN);
  if (contentType && (PDF_TYPES.has(contentType) || BINARY_TYPES.has(contentType))) {
    return await readPdf(res, base, signal, options, length);
  }
  const truncate = options.overflow === "truncate";
  if (length > options.maxBytes && !truncate) {
    return refuse("too_large", `Body of ${length} bytes is over the ${mb(options.maxBytes)} cap`);
  }
  if (contentType && !READABLE_TYPES.has(contentType)) {
    return refuse("not_html", `Not a web page: ${contentType}`);
  }
  const { bytes, overflow } = await readCapped(res.body, options.maxBytes, signal);
  if (overflow && !truncate) {
    return { ...base, status: "too_large", reason: `Body over the ${mb(options.maxBytes)} cap` };
  }
  if (!contentType && isPdfBytes(bytes)) {
    return { ...base, contentType: "application/pdf", bytes };
  }
  if (!contentType && bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return { ...base, status: "not_html", reason: "Binary content without a Content-Type" };
  }
  const { text, charset } = decodeBody(bytes, header);
  const type = contentType ?? (LOOKS_LIKE_HTML.test(text) ? "text/html" : "text/plain");
  const page: Outcome = { ...base, contentType: type, charset };
  if (text.trim() === "") {
    return { ...page, status: "empty", reason: "The server sent an empty page" };
  }
  if (CHALLENGE_MARKERS.test(text.slice(0, ERROR_SNIFF_BYTES))) {
    return { ...page, status: "captcha", reason: "CAPTCHA or bot challenge instead of the page" };
  }
  return { ...page, body: text };
}

/**
 * A PDF (or a generic binary body that turns out to be one) as bytes, under
 * its own size cap. A body served as PDF that is not one goes on to pdf.js,
 * which says why it cannot read it.
 */
async function readPdf(
  res: Response,
  base: Outcome,
  signal: AbortSignal,
  options: FetchOptions,
  length: number,
): Promise<Outcome> {
  const cap = options.pdfMaxBytes;
  const declared = base.contentType ?? "";
  if (length > cap) {
    await res.body?.cancel().catch(() => {});
    return {
      ...base,
      status: "too_large",
      reason: `PDF of ${length} bytes is over the ${mb(cap)} PDF cap`,
    };
  }
  const { bytes, overflow } = await readCapped(res.body, cap, signal);
  if (overflow) return { ...base, status: "too_large", reason: `PDF over the ${mb(cap)} PDF cap` };
  if (BINARY_TYPES.has(declared) && !isPdfBytes(bytes)) {
    return { ...base, status: "not_html", reason: `Not a web page or a PDF: ${declared}` };
  }
  return { ...base, contentType: "application/pdf", bytes };
}

/** 4xx/5xx: `blocked` for 403/429, `captcha` when the body is a challenge, else `http_error`. */
async function errorOutcome(res: Response, base: Outcome, signal: AbortSignal): Promise<Outcome> {
  const code = res.status;
  const line = `HTTP ${code}${res.statusText ? ` ${res.statusText}` : ""}`;
  if (!CHALLENGE_STATUSES.has(code)) {
    await res.body?.cancel().catch(() => {});
    return { ...base, status: "http_error", reason: line };
  }
  const { bytes } = await readCapped(res.body, ERROR_SNIFF_BYTES, signal);
  const text = decodeBody(bytes, res.headers.get("content-type")).text;
  if (CHALLENGE_MARKERS.test(text) || CAPTCHA_WORDS.test(text)) {
    return { ...base, status: "captcha", reason: `CAPTCHA or bot challenge (${line})` };
  }
  if (code === 503) return { ...base, status: "http_error", reason: line };
  const why = code === 429 ? "rate limited by the site" : "the site refused the request";
  return { ...base, status: "blocked", reason: `${line}: ${why}` };
}

function validatorsOf(headers: Headers): Validators | undefined {
  const etag = headers.get("etag");
  const lastModified = headers.get("last-modified");
  if (!etag && !lastModified) return undefined;
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

function mb(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * Reads a body chunk by chunk, stopping (and cancelling the stream) once it
 * passes `limit`. Bytes are counted after decompression, so a small gzip
 * body that expands is stopped too.
 */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  signal: AbortSignal,
): Promise<{ bytes: Uint8Array; overflow: boolean }> {
  if (!body) return { bytes: new Uint8Array(), overflow: false };
  const reader = body.getReader();
  // fetch aborts its body on the signal; cancelling here as well makes sure a
  // stalled read ends even when `deps.fetch` is not the built-in one.
  const stop = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  let overflow = false;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size > limit) {
        overflow = true;
        await reader.cancel().catch(() => {});
        break;
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
  }
  // A cancelled read ends as "done": the body is only complete if nothing aborted.
  signal.throwIfAborted();
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return { bytes, overflow };
}

/** Why a fetch threw: a timeout, a cancellation, or a network failure in plain words. */
function failure(error: unknown, trail: Trail, run: Run): Outcome {
  if (error instanceof QuarryError) return { status: "blocked", reason: error.message };
  const { options } = run;
  if (options.signal?.aborted) {
    return { status: "timeout", reason: "Cancelled before the page arrived" };
  }
  if (run.deadline.aborted) {
    return {
      status: "timeout",
      reason: `Overall deadline of ${options.deadlineMs} ms reached ${trail.phase}`,
    };
  }
  const timedOut = trail.timeout?.aborted ||
    (error instanceof DOMException && error.name === "TimeoutError");
  if (timedOut) {
    return {
      status: "timeout",
      reason: `Timed out after ${options.timeoutMs} ms ${trail.phase}`,
    };
  }
  return { status: "http_error", reason: networkReason(error, trail) };
}

function networkReason(error: unknown, trail: Trail): string {
  const messages: string[] = [];
  for (let e: unknown = error; e instanceof Error && messages.length < 5; e = e.cause) {
    messages.push(e.message);
  }
  const text = messages.join(" | ");
  const host = URL.parse(trail.finalUrl)?.host ?? trail.finalUrl;
  const known = NETWORK_REASONS.find(([pattern]) => pattern.test(text));
  if (known) {
    const [, words] = known;
    return trail.phase === "while reading the body"
      ? `${words} ${host} while reading the body`
      : `${words} ${host}`;
  }
  return `Network error with ${host} ${trail.phase}`;
}

/** Per-host concurrency limit; local to one batch, so no state outlives it. */
interface HostSlots {
  /** Resolves with a release function once a request to `host` may start. */
  acquire(host: string, signal: AbortSignal): Promise<() => void>;
}

function hostSlots(limit: number): HostSlots {
  const active = new Map<string, number>();
  const queues = new Map<string, (() => void)[]>();
  const releaser = (host: string) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = queues.get(host)?.shift();
      if (next) next(); // the slot passes straight to the next in line
      else active.set(host, (active.get(host) ?? 1) - 1);
    };
  };
  return {
    acquire(host, signal) {
      signal.throwIfAborted();
      const inFlight = active.get(host) ?? 0;
      if (inFlight < Math.max(1, limit)) {
        active.set(host, inFlight + 1);
        return Promise.resolve(releaser(host));
      }
      return new Promise((resolve, reject) => {
        const queue = queues.get(host) ?? [];
        queues.set(host, queue);
        const onAbort = () => {
          queue.splice(queue.indexOf(grant), 1);
          reject(signal.reason);
        };
        const grant = () => {
          signal.removeEventListener("abort", onAbort);
          resolve(releaser(host));
        };
        queue.push(grant);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}
