/**
 * Fake search engines for the fixture web. Each engine lives under its own
 * path prefix (`/ddg/html/`, `/bing/search`, …) and serves the SERPs in
 * `fixtures/serp/<engine>/`. A `~mode` segment after the prefix changes how
 * it behaves, per request and without shared state, so separate processes
 * see the same thing: `/ddg/~captcha/html/` is DuckDuckGo's anomaly page,
 * `/bing/~ratelimit/search` a 429, and so on (see {@linkcode EngineMode}).
 * Point an engine at a mode through its base URL with
 * {@linkcode fakeEngineEnv}.
 * @module
 */
import type { EngineName } from "../../../src/pipeline/engines/types.ts";
import type { Route } from "../fixture_web.ts";

const FIXTURES = new URL("../../../fixtures/serp/", import.meta.url);

/**
 * How a fake engine answers: `ok` results; `captcha` its block page (with the
 * status the real engine uses); `ratelimit` 429 with Retry-After; `forbidden`
 * 403; `malformed` a page or JSON no parser can read; `empty` a genuine
 * "no results"; `down` 500; `slow` answers after 3 s; `enablejs` Google's
 * JavaScript wall.
 */
export const ENGINE_MODES = [
  "ok",
  "captcha",
  "ratelimit",
  "forbidden",
  "malformed",
  "empty",
  "down",
  "slow",
  "enablejs",
] as const;

/** One behaviour of a fake engine. */
export type EngineMode = typeof ENGINE_MODES[number];

/** API keys the fake APIs accept. */
export const FAKE_KEYS = { brave: "test-brave-key", exa: "test-exa-key" } as const;

/** Delay of the `slow` mode. */
const SLOW_MS = 3000;

interface FakeEngine {
  /** Folder under fixtures/serp/. */
  dir: EngineName;
  method: "GET" | "POST";
  /** Path after the prefix. */
  path: string;
  json: boolean;
  /** Block page file and status for `captcha` mode; no file means an empty body. */
  block: { file?: string; status: number };
  /** The query sent, or a Response refusing a malformed request. */
  read(req: Request, url: URL): Promise<Record<string, string> | Response>;
}

const badRequest = (what: string) => new Response(what, { status: 400 });

async function readForm(req: Request): Promise<Record<string, string> | Response> {
  if (req.method !== "POST") return badRequest("POST the form");
  const form = new URLSearchParams(await req.text());
  if (!form.get("q")) return badRequest("missing q");
  return Object.fromEntries(form);
}

function readParams(_req: Request, url: URL): Promise<Record<string, string> | Response> {
  const q = url.searchParams.get("q");
  return Promise.resolve(q ? Object.fromEntries(url.searchParams) : badRequest("missing q"));
}

/** Every fake engine by its path prefix. */
const ENGINES: Record<string, FakeEngine> = {
  "ddg": {
    dir: "duckduckgo",
    method: "POST",
    path: "/html/",
    json: false,
    block: { file: "anomaly.html", status: 202 },
    read: readForm,
  },
  "ddg-lite": {
    dir: "duckduckgo-lite",
    method: "POST",
    path: "/lite/",
    json: false,
    block: { file: "anomaly.html", status: 202 },
    read: readForm,
  },
  "bing": {
    dir: "bing",
    method: "GET",
    path: "/search",
    json: false,
    block: { file: "captcha.html", status: 200 },
    read: readParams,
  },
  "mojeek": {
    dir: "mojeek",
    method: "GET",
    path: "/search",
    json: false,
    block: { file: "blocked.html", status: 403 },
    read: readParams,
  },
  "google": {
    dir: "google",
    method: "GET",
    path: "/search",
    json: false,
    block: { file: "captcha.html", status: 200 },
    read: readParams,
  },
  "searxng": {
    dir: "searxng",
    method: "GET",
    path: "/search",
    json: true,
    // SearXNG's limiter answers 429; it has no CAPTCHA of its own.
    block: { status: 429 },
    read: async (req, url) => {
      if (url.searchParams.get("format") !== "json") return badRequest("format=json expected");
      return await readParams(req, url);
    },
  },
  "brave": {
    dir: "brave",
    method: "GET",
    path: "/res/v1/web/search",
    json: true,
    block: { status: 429 },
    read: async (req, url) => {
      if (req.headers.get("x-subscription-token") !== FAKE_KEYS.brave) {
        return Response.json({ type: "ErrorResponse", error: { status: 401 } }, { status: 401 });
      }
      return await readParams(req, url);
    },
  },
  "startpage": {
    dir: "startpage",
    method: "GET",
    path: "/sp/search",
    json: false,
    block: { file: "captcha.html", status: 200 },
    read: readParams,
  },
  "brave-html": {
    dir: "brave-html",
    method: "GET",
    path: "/search",
    json: false,
    block: { file: "captcha.html", status: 200 },
    read: readParams,
  },
  "wikipedia": {
    dir: "wikipedia",
    method: "GET",
    path: "/w/api.php",
    json: true,
    // MediaWiki throttles with 429 and Retry-After; it has no CAPTCHA for the API.
    block: { status: 429 },
    read: (_req, url) => {
      const q = url.searchParams.get("srsearch");
      if (url.searchParams.get("action") !== "query" || url.searchParams.get("list") !== "search") {
        return Promise.resolve(badRequest("action=query&list=search expected"));
      }
      return Promise.resolve(
        q ? { ...Object.fromEntries(url.searchParams), q } : badRequest("missing srsearch"),
      );
    },
  },
  "exa": {
    dir: "exa",
    method: "POST",
    path: "/search",
    json: true,
    block: { status: 429 },
    read: async (req) => {
      if (req.headers.get("x-api-key") !== FAKE_KEYS.exa) {
        return Response.json({ error: "Invalid API key" }, { status: 401 });
      }
      const body = await req.json().catch(() => undefined) as Record<string, unknown> | undefined;
      if (typeof body?.query !== "string" || !body.query) return badRequest("missing query");
      return { q: body.query, body: JSON.stringify(body) };
    },
  },
};

/** Path prefix of each engine, e.g. `ddg` for DuckDuckGo. */
export const ENGINE_PREFIX: Readonly<Record<EngineName, string>> = {
  duckduckgo: "ddg",
  "duckduckgo-lite": "ddg-lite",
  bing: "bing",
  mojeek: "mojeek",
  google: "google",
  searxng: "searxng",
  brave: "brave",
  exa: "exa",
  startpage: "startpage",
  "brave-html": "brave-html",
  wikipedia: "wikipedia",
};

const ENV_NAME: Readonly<Record<EngineName, string>> = {
  duckduckgo: "QUARRY_DDG_URL",
  "duckduckgo-lite": "QUARRY_DDG_LITE_URL",
  bing: "QUARRY_BING_URL",
  mojeek: "QUARRY_MOJEEK_URL",
  google: "QUARRY_GOOGLE_URL",
  searxng: "SEARXNG_URL",
  brave: "QUARRY_BRAVE_URL",
  exa: "QUARRY_EXA_URL",
  startpage: "QUARRY_STARTPAGE_URL",
  "brave-html": "QUARRY_BRAVE_HTML_URL",
  wikipedia: "QUARRY_WIKIPEDIA_URL",
};

/** Base URL of a fake engine in a mode. */
export function fakeEngineUrl(origin: string, engine: EngineName, mode: EngineMode = "ok"): string {
  return `${origin}/${ENGINE_PREFIX[engine]}${mode === "ok" ? "" : `/~${mode}`}`;
}

/** Options of {@linkcode fakeEngineEnv}. */
export interface FakeEngineEnvOptions {
  /** Set SEARXNG_URL (which puts SearXNG first in the default chain). @default {false} */
  searxng?: boolean;
  /** Set BRAVE_API_KEY and EXA_API_KEY to the keys the fakes accept. @default {false} */
  keys?: boolean;
}

/**
 * Environment variables pointing every engine at the fixture web, each in
 * the mode asked for (default `ok`).
 *
 * @example
 * ```ts
 * configFromEnv({ ...fakeEngineEnv(web.origin, { duckduckgo: "captcha" }), QUARRY_HOME: home });
 * ```
 */
export function fakeEngineEnv(
  origin: string,
  modes: Partial<Record<EngineName, EngineMode>> = {},
  options: FakeEngineEnvOptions = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const engine of Object.keys(ENV_NAME) as EngineName[]) {
    if (engine === "searxng" && !options.searxng) continue;
    env[ENV_NAME[engine]] = fakeEngineUrl(origin, engine, modes[engine]);
  }
  if (options.keys) {
    env.BRAVE_API_KEY = FAKE_KEYS.brave;
    env.EXA_API_KEY = FAKE_KEYS.exa;
  }
  return env;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const HTML_SPECIAL = /[&<>"']/g;
const ORIGIN_SLOT = /\{\{origin\}\}/g;
const UDDG_SLOT = /\{\{uddg:([^}]*)\}\}/g;
const A1_SLOT = /\{\{a1:([^}]*)\}\}/g;
const PARAM_SLOT = /\{\{(q|kl|df)\}\}/g;
const ENGINE_PATH = /^\/([a-z-]+)(?:\/~([a-z]+))?(\/.*)$/;

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replaceAll("=", "");
}

/** Fills a fixture's `{{…}}` slots: origin, wrapped links and the request's parameters. */
function fill(template: string, origin: string, params: Record<string, string>, json: boolean) {
  const escape = (s: string) =>
    json ? JSON.stringify(s).slice(1, -1) : s.replace(HTML_SPECIAL, (c) => HTML_ESCAPES[c]!);
  return template.replace(ORIGIN_SLOT, origin)
    .replace(UDDG_SLOT, (_, url: string) => encodeURIComponent(url))
    .replace(A1_SLOT, (_, url: string) => `a1${base64Url(url)}`)
    .replace(PARAM_SLOT, (_, name: string) => escape(params[name] ?? ""));
}

async function serveFile(
  engine: FakeEngine,
  file: string,
  status: number,
  origin: string,
  params: Record<string, string>,
) {
  const text = await Deno.readTextFile(new URL(`${engine.dir}/${file}`, FIXTURES));
  return new Response(fill(text, origin, params, engine.json), {
    status,
    headers: {
      "content-type": engine.json && file.endsWith(".json")
        ? "application/json"
        : "text/html; charset=utf-8",
    },
  });
}

/** Answers `/<prefix>[/~mode]<path>` for every fake engine. */
const serveEngine: Route = async (req, url, web) => {
  const match = ENGINE_PATH.exec(url.pathname);
  const engine = ENGINES[match?.[1] ?? ""];
  if (!match || !engine || match[3] !== engine.path) return undefined;
  const mode = (match[2] ?? "ok") as EngineMode;
  if (!(ENGINE_MODES as readonly string[]).includes(mode)) {
    return new Response(`unknown mode ${mode}`, { status: 400 });
  }
  if (req.method !== engine.method) return new Response("method not allowed", { status: 405 });
  const params = await engine.read(req, url);
  if (params instanceof Response) return params;
  const ext = engine.json ? "json" : "html";
  switch (mode) {
    case "captcha":
      return engine.block.file
        ? await serveFile(engine, engine.block.file, engine.block.status, web.origin, params)
        : new Response("blocked", {
          status: engine.block.status,
          headers: { "retry-after": "120" },
        });
    case "ratelimit":
      return new Response("Too Many Requests", { status: 429, headers: { "retry-after": "120" } });
    case "forbidden":
      return new Response("Forbidden", { status: 403 });
    case "down":
      return new Response("Internal Server Error", { status: 500 });
    case "malformed":
      return await serveFile(engine, `malformed.${ext}`, 200, web.origin, params);
    case "empty":
      return await serveFile(engine, `no_results.${ext}`, 200, web.origin, params);
    case "enablejs":
      return await serveFile(engine, "enablejs.html", 200, web.origin, params);
    case "slow":
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SLOW_MS);
        web.closing.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return await serveFile(engine, `results.${ext}`, 200, web.origin, params);
    default:
      return await serveFile(engine, `results.${ext}`, 200, web.origin, params);
  }
};

/** Engine routes in the order they are tried. */
export const engineRoutes: Route[] = [serveEngine];
