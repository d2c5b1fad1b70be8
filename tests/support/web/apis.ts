/**
 * Stand-ins for keyed APIs, shaped like their documentation:
 *
 * - Context7 under `/context7/…`: `GET v2/libs/search?libraryName=&query=`
 *   (fuzzy match over `fixtures/apis/context7/libraries.json`; 404
 *   `no_libraries_found` when nothing is close) and `GET v2/context?
 *   libraryId=&query=&type=json` (from `context_<owner>_<repo>.json`; 404
 *   `library_not_found` / `no_snippets_found`). Keys must start `ctx7sk`.
 * - Perplexity under `/perplexity/…`: `POST chat/completions` answering
 *   `fixtures/apis/perplexity/deep_research.json` for the model asked.
 *   Keys must start `pplx-`.
 *
 * A wrong or missing key gets 401. A behaviour is chosen by a path segment
 * starting with `~` right after the service name, so a test picks it through
 * the base URL (`QUARRY_CONTEXT7_URL=<origin>/context7/~429-then-ok`):
 * `~429-then-ok` (the first request to each endpoint answers 429 with
 * `Retry-After: 1`), `~429-forever` (`Retry-After: 5`), `~500`,
 * `~500-then-ok`, `~malformed` (cut-off JSON), `~slow` (the body stalls for 5 s
 * after its first bytes), `~plain` (Perplexity without
 * `search_results`).
 * @module
 */
import type { FixtureWebInfo, Route } from "../fixture_web.ts";

const FIXTURES = new URL("../../../fixtures/apis/", import.meta.url);
const SLOW_MS = 5000;
const MODE_SEGMENT = /^\/(context7|perplexity)(?:\/~([a-z0-9-]+))?(\/.*)$/;
const NOT_ALNUM = /[^a-z0-9]/g;

/** Requests seen per web, mode and endpoint: "then ok" behaviours fail only the first. */
const seen = new WeakMap<FixtureWebInfo, Map<string, number>>();

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function apiError(status: number, error: string, message: string, headers = {}): Response {
  return json({ error, message }, status, headers);
}

async function fixture(name: string): Promise<unknown | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(new URL(name, FIXTURES)));
  } catch {
    return undefined;
  }
}

/**
 * A JSON answer whose body stalls after its first bytes: the client's
 * timeout must cover the body too. Cancelling (client gone) stops the timer.
 */
function stalledJson(): Response {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"results": '));
      timer = setTimeout(() => {
        controller.enqueue(new TextEncoder().encode("[]}"));
        controller.close();
      }, SLOW_MS);
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

/** Answers a fault for the mode, or undefined to serve normally. */
function fault(
  mode: string | undefined,
  key: string,
  web: FixtureWebInfo,
): Response | undefined {
  if (mode === undefined) return undefined;
  const counts = seen.get(web) ?? new Map<string, number>();
  seen.set(web, counts);
  const count = (counts.get(key) ?? 0) + 1;
  counts.set(key, count);
  switch (mode) {
    case "429-forever":
      return apiError(429, "rate_limit_exceeded", "Rate limit exceeded.", { "retry-after": "5" });
    case "429-then-ok":
      return count === 1
        ? apiError(429, "rate_limit_exceeded", "Rate limit exceeded.", { "retry-after": "1" })
        : undefined;
    case "500":
      return apiError(500, "internal_error", "An error occurred while processing your request");
    case "500-then-ok":
      return count === 1 ? apiError(503, "search_failed", "Service unavailable") : undefined;
    case "malformed":
      return new Response('{"results": [{"id": "/facebook/re', {
        headers: { "content-type": "application/json" },
      });
    case "slow":
      return stalledJson();
    default:
      return undefined;
  }
}

function bearer(req: Request): string {
  return req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
}

function squash(text: string): string {
  return text.toLowerCase().replace(NOT_ALNUM, "");
}

/** Character trigrams, for a fuzzy name match like a search service's. */
function trigrams(text: string): Set<string> {
  const s = `  ${squash(text)} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

function similarity(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  let common = 0;
  for (const t of x) if (y.has(t)) common++;
  return common / (x.size + y.size - common);
}

interface Library {
  id: string;
  title: string;
}

async function context7(req: Request, url: URL, path: string): Promise<Response> {
  if (!bearer(req).startsWith("ctx7sk")) {
    return apiError(
      401,
      "invalid_api_key",
      "Invalid API key. API keys should start with 'ctx7sk'.",
    );
  }
  const query = url.searchParams.get("query") ?? "";
  if (path === "/v2/libs/search") {
    const name = url.searchParams.get("libraryName") ?? "";
    if (!name || !query) return apiError(400, "bad_request", "libraryName and query are required");
    const libraries = (await fixture("context7/libraries.json")) as Library[];
    const scored = libraries
      .map((lib) => ({
        lib,
        score: Math.max(similarity(name, lib.title), similarity(name, lib.id)),
      }))
      .filter((s) => s.score >= 0.15)
      .sort((a, b) => b.score - a.score);
    if (scored.length === 0) {
      return apiError(404, "no_libraries_found", `No libraries found for "${name}".`);
    }
    return json({ results: scored.map((s) => s.lib), searchFilterApplied: false });
  }
  if (path === "/v2/context") {
    const id = url.searchParams.get("libraryId") ?? "";
    if (!id || !query) return apiError(400, "bad_request", "libraryId and query are required");
    const libraries = (await fixture("context7/libraries.json")) as Library[];
    if (!libraries.some((lib) => lib.id === id)) {
      return apiError(404, "library_not_found", `Library "${id}" not found.`);
    }
    const body = await fixture(`context7/context_${id.slice(1).replace(/[/.]/g, "_")}.json`);
    if (!body) {
      return apiError(404, "no_snippets_found", "Could not fetch documentation snippets.");
    }
    return json(body);
  }
  return apiError(404, "not_found", "No such endpoint");
}

async function perplexity(req: Request, path: string, mode: string | undefined) {
  if (!bearer(req).startsWith("pplx-")) {
    return json({ error: { message: "Invalid API key", type: "invalid_api_key", code: 401 } }, 401);
  }
  if (path !== "/chat/completions" || req.method !== "POST") {
    return json({ error: { message: "Not found", type: "not_found", code: 404 } }, 404);
  }
  const body = await req.json().catch(() => undefined) as
    | { model?: string; messages?: { role: string; content: string }[] }
    | undefined;
  if (!body?.model || !body.messages?.some((m) => m.role === "user" && m.content)) {
    return json({ error: { message: "model and a user message are required", code: 400 } }, 400);
  }
  const answer = (await fixture("perplexity/deep_research.json")) as Record<string, unknown>;
  answer.model = body.model;
  if (mode === "plain") delete answer.search_results;
  return json(answer);
}

/** Context7 and Perplexity stand-ins. */
const serveApis: Route = async (req, url, web) => {
  const match = MODE_SEGMENT.exec(url.pathname);
  if (!match) return undefined;
  const [, service, mode, path] = match as unknown as [string, string, string | undefined, string];
  const failed = fault(mode, `${service}${path}`, web);
  if (failed) return failed;
  return service === "context7"
    ? await context7(req, url, path)
    : await perplexity(req, path, mode);
};

/** API routes in the order they are tried. */
export const apiRoutes: Route[] = [serveApis];
