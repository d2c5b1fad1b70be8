/**
 * Configuration: environment variables → one {@linkcode Config}. This is the
 * only module that reads the environment; everything else receives a Config.
 * @module
 */
import { QuarryError } from "./errors.ts";

/** Every environment variable Quarry reads, with what it does (README lists them). */
export const ENV_VARS = {
  QUARRY_HOME: "Data directory (default $XDG_DATA_HOME/quarry, else ~/.quarry)",
  XDG_DATA_HOME: "Base of the default data directory",
  HOME: "Home directory (default data directory ~/.quarry)",
  QUARRY_KV_URL: "Remote Deno KV (KV Connect) URL instead of the local kv.sqlite3",
  DENO_KV_ACCESS_TOKEN: "Access token for QUARRY_KV_URL (read by Deno's KV client)",
  QUARRY_USER_AGENT: "User-Agent sent with every request",
  QUARRY_TIMEOUT: "Per-page fetch timeout (default 8s)",
  QUARRY_PDF_MAX_BYTES:
    "Largest PDF read, e.g. 25MB (default 25MB; web pages have their own 10 MB cap)",
  QUARRY_PDF_MAX_PAGES:
    "Pages of a PDF read at most; the rest is left out and said so (default 300)",
  QUARRY_ALLOW_PRIVATE_NETWORK: "1 lets Quarry fetch loopback and private addresses",
  QUARRY_ROBOTS: "1 makes Quarry obey robots.txt for the pages it reads (as --robots)",
  QUARRY_RATE_LIMIT: "Delay between two requests to one search engine (default 1s)",
  QUARRY_ENGINES: "Engine chain, comma-separated",
  QUARRY_COOLDOWN:
    "How long a first block cools an engine down; repeated blocks double it (default 1m)",
  QUARRY_COOLDOWN_MAX: "Longest cool-down of an engine blocked again and again (default 30m)",
  QUARRY_HEDGE_DELAY:
    "How long the chain waits on a silent engine before asking the next too (default 1.5s)",
  QUARRY_FUSION:
    "Ask this many engines at once and merge their results by rank fusion (default 0: off)",
  QUARRY_CACHE_TTL: "Time to live of cached answers (default 24h)",
  QUARRY_BLOCKED_DOMAINS: "Extra domains never fetched by search, comma-separated",
  QUARRY_DDG_URL: "DuckDuckGo HTML endpoint base URL",
  QUARRY_DDG_LITE_URL: "DuckDuckGo Lite endpoint base URL",
  QUARRY_BING_URL: "Bing base URL",
  QUARRY_MOJEEK_URL: "Mojeek base URL",
  QUARRY_GOOGLE_URL: "Google base URL",
  QUARRY_STARTPAGE_URL: "Startpage base URL",
  QUARRY_BRAVE_HTML_URL: "Brave Search HTML page base URL",
  QUARRY_WIKIPEDIA_URL: "Wikipedia base URL; {lang} is replaced by the --region language",
  SEARXNG_URL: "SearXNG instance base URL (JSON format must be enabled)",
  QUARRY_BRAVE_URL: "Brave Search API base URL",
  QUARRY_EXA_URL: "Exa API base URL",
  BRAVE_API_KEY: "Brave Search API key",
  EXA_API_KEY: "Exa API key",
  QUARRY_CONTEXT7_URL: "Context7 API base URL",
  CONTEXT7_API_KEY: "Context7 API key",
  QUARRY_PERPLEXITY_URL: "Perplexity API base URL",
  QUARRY_PERPLEXITY_MODEL: "Perplexity model for deep research (default sonar-deep-research)",
  PERPLEXITY_API_KEY: "Perplexity API key",
  QUARRY_BROWSER_URL:
    "Headless Chromium's DevTools URL (http://127.0.0.1:9222 or ws://…) to render JavaScript pages",
  QUARRY_BROWSER_TABS: "Most browser tabs rendering at once (default 4)",
  QUARRY_BROWSER_TIMEOUT: "Timeout of one page render in the browser (default 15s)",
  QUARRY_TOKEN: "Bearer token the HTTP server requires",
  QUARRY_PORT: "HTTP server port (default 8080)",
  QUARRY_INDEX_ROOTS: "Folders the servers may index over HTTP, comma-separated (else none)",
  NO_COLOR: "Disable colour in terminal output",
  QUARRY_DEBUG: "1 prints the stack behind an INTERNAL error on stderr",
} as const;

/** Name of an environment variable Quarry reads. */
export type EnvName = keyof typeof ENV_VARS;

/** A snapshot of the environment variables Quarry reads. */
export type Env = Partial<Record<EnvName, string>>;

/** Base URLs of every remote service; each is overridable for tests. */
export interface ServiceUrls {
  duckduckgo: string;
  duckduckgoLite: string;
  bing: string;
  mojeek: string;
  google: string;
  startpage: string;
  braveHtml: string;
  wikipedia: string;
  searxng: string | undefined;
  brave: string;
  exa: string;
  context7: string;
  perplexity: string;
}

/** API keys; `undefined` when unset. */
export interface ApiKeys {
  brave: string | undefined;
  exa: string | undefined;
  context7: string | undefined;
  perplexity: string | undefined;
}

/** The browser that renders JavaScript pages. */
export interface BrowserConfig {
  /** `QUARRY_BROWSER_URL`; `undefined` when no browser is configured. */
  url: string | undefined;
  tabs: number;
  timeoutMs: number;
}

/** Everything configurable, resolved once at start-up. */
export interface Config {
  home: string;
  kvUrl: string | undefined;
  userAgent: string;
  timeoutMs: number;
  /** Largest PDF body read, in bytes. */
  pdfMaxBytes: number;
  /** Pages of a PDF read at most. */
  pdfMaxPages: number;
  allowPrivateNetwork: boolean;
  /** Obey robots.txt for every page read (QUARRY_ROBOTS=1). */
  robots: boolean;
  rateLimitMs: number;
  engines: string[] | undefined;
  cooldownMs: number;
  cooldownMaxMs: number;
  hedgeDelayMs: number;
  /** Engines asked at once for rank fusion; 0 or 1 is the hedged chain. */
  fusion: number;
  cacheTtlMs: number;
  blockedDomains: string[];
  urls: ServiceUrls;
  keys: ApiKeys;
  perplexityModel: string;
  token: string | undefined;
  port: number;
  /** Folders `archive index` may read under when asked over HTTP or MCP. */
  indexRoots: string[];
  browser: BrowserConfig;
  noColor: boolean;
  /** Print stacks behind INTERNAL errors. */
  debug: boolean;
}

/** The version printed by `--version` and `/health`. */
export const VERSION = "0.1.0";

/** Default User-Agent: says who we are and where to read about it. */
export const DEFAULT_USER_AGENT =
  `Quarry/${VERSION} (+https://github.com/quarry-research/quarry; research assistant)`;

const SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?$/i;
const UNIT_BYTES: Record<string, number> = {
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/**
 * Parses a size such as `25MB`, `512KB` or `1048576` (bytes); units are
 * binary (1 MB = 1024 KB).
 *
 * @example
 * ```ts
 * parseSize("25MB"); // 26214400
 * ```
 */
export function parseSize(text: string, name = "size"): number {
  const match = SIZE.exec(text.trim());
  if (!match || Number(match[1]) <= 0) {
    throw new QuarryError("BAD_INPUT", `Cannot read ${name} "${text}"`, {
      suggestions: ["Write a size like 25MB, 512KB or a number of bytes"],
    });
  }
  return Math.round(Number(match[1]) * UNIT_BYTES[(match[2] ?? "b").toLowerCase()]!);
}

/** A positive whole number from the environment. */
function parseCount(text: string, name: string): number {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n <= 0) {
    throw new QuarryError("BAD_INPUT", `${name} "${text}" is not a positive whole number`, {
      suggestions: [`Set ${name} to a number such as 300`],
    });
  }
  return n;
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** The longest delay a timer can wait (2^31 − 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a duration may be. */
export interface DurationBounds {
  /** Shortest allowed, in ms. @default {1} (zero is refused) */
  minMs?: number;
  /** Longest allowed, in ms. @default {MAX_TIMER_MS} */
  maxMs?: number;
}

/** `2073600000` → `24d`, `90000` → `90s`: the largest unit that reads whole, for messages. */
function shortDuration(ms: number): string {
  for (const unit of ["d", "h", "m", "s"]) {
    const n = ms / UNIT_MS[unit]!;
    if (n >= 1) return `${Math.floor(n * 10) / 10}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * Reads a duration such as `500ms`, `8s`, `15m`, `1h`, `2d` (a bare number
 * is seconds) to milliseconds, or says why it cannot. Durations outside
 * `bounds` are refused, never clamped: a timer given more than
 * {@linkcode MAX_TIMER_MS} fires at once.
 */
export function readDuration(
  text: string,
  bounds: DurationBounds = {},
): { ms: number } | { error: string } {
  const { minMs = 1, maxMs = MAX_TIMER_MS } = bounds;
  const match = DURATION.exec(text.trim());
  if (!match) return { error: "write a duration like 500ms, 8s, 15m, 1h or 2d" };
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] ?? "s"]!);
  if (!Number.isFinite(ms) || ms > maxMs) {
    return { error: `the longest allowed is ${shortDuration(maxMs)}` };
  }
  if (ms < minMs) return { error: minMs === 1 ? "it must be more than zero" : "it is too short" };
  return { ms };
}

/**
 * Parses a duration (see {@linkcode readDuration}); throws `BAD_INPUT` naming
 * `name` when it cannot.
 *
 * @example
 * ```ts
 * parseDuration("2s"); // 2000
 * ```
 */
export function parseDuration(
  text: string,
  name = "duration",
  bounds: DurationBounds = {},
): number {
  const read = readDuration(text, bounds);
  if ("ms" in read) return read.ms;
  // Kept out of zod: the entry point imports this module, and start-up loads no npm package.
  throw new QuarryError("BAD_INPUT", `Cannot read ${name} "${text}": ${read.error}`, {
    suggestions: [`Write ${name} as a duration like 500ms, 8s, 15m, 1h or 2d, above zero`],
  });
}

/** Cache lifetimes are not timers: up to a year. */
export const TTL_BOUNDS: DurationBounds = { maxMs: 365 * UNIT_MS.d! };

/** The data directory: QUARRY_HOME, else $XDG_DATA_HOME/quarry, else ~/.quarry. */
export function resolveDataDir(env: Env): string {
  if (env.QUARRY_HOME) return env.QUARRY_HOME;
  if (env.XDG_DATA_HOME) return `${env.XDG_DATA_HOME}/quarry`;
  return `${env.HOME ?? "."}/.quarry`;
}

function list(text: string | undefined): string[] | undefined {
  const items = text?.split(",").map((s) => s.trim()).filter(Boolean);
  return items && items.length > 0 ? items : undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

const MAX_BROWSER_TABS = 64;

function browserConfig(env: Env): BrowserConfig {
  const tabs = Number(env.QUARRY_BROWSER_TABS ?? "4");
  if (!Number.isInteger(tabs) || tabs < 1 || tabs > MAX_BROWSER_TABS) {
    throw new QuarryError(
      "BAD_INPUT",
      `QUARRY_BROWSER_TABS "${env.QUARRY_BROWSER_TABS}" is not a tab count`,
      {
        suggestions: [`Set QUARRY_BROWSER_TABS to a number from 1 to ${MAX_BROWSER_TABS}`],
      },
    );
  }
  const url = env.QUARRY_BROWSER_URL ? trimSlash(env.QUARRY_BROWSER_URL) : undefined;
  if (url !== undefined && !/^(?:https?|wss?):\/\/[^/]/.test(url)) {
    throw new QuarryError("BAD_INPUT", `QUARRY_BROWSER_URL "${url}" is not a DevTools URL`, {
      suggestions: [
        "Set it to http://127.0.0.1:9222 (chromium --remote-debugging-port=9222) or a ws:// endpoint",
      ],
    });
  }
  return {
    url,
    tabs,
    timeoutMs: parseDuration(env.QUARRY_BROWSER_TIMEOUT ?? "15s", "QUARRY_BROWSER_TIMEOUT"),
  };
}

/** Most engines rank fusion asks at once. */
export const MAX_FUSION = 8;

function parseFusion(text: string | undefined): number {
  if (text === undefined || text.trim() === "") return 0;
  const k = Number(text);
  if (!Number.isInteger(k) || k < 0 || k > MAX_FUSION) {
    throw new QuarryError("BAD_INPUT", `QUARRY_FUSION "${text}" is not an engine count`, {
      suggestions: [`Set QUARRY_FUSION to a whole number from 0 (off) to ${MAX_FUSION}`],
    });
  }
  return k;
}

/** Builds a Config from an environment snapshot. Pure: tests pass their own env. */
export function configFromEnv(env: Env): Config {
  const port = Number(env.QUARRY_PORT ?? "8080");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new QuarryError("BAD_INPUT", `QUARRY_PORT "${env.QUARRY_PORT}" is not a port`, {
      suggestions: ["Set QUARRY_PORT to a number from 0 to 65535"],
    });
  }
  return {
    home: resolveDataDir(env),
    kvUrl: env.QUARRY_KV_URL || undefined,
    userAgent: env.QUARRY_USER_AGENT || DEFAULT_USER_AGENT,
    timeoutMs: parseDuration(env.QUARRY_TIMEOUT ?? "8s", "QUARRY_TIMEOUT"),
    pdfMaxBytes: parseSize(env.QUARRY_PDF_MAX_BYTES ?? "25MB", "QUARRY_PDF_MAX_BYTES"),
    pdfMaxPages: parseCount(env.QUARRY_PDF_MAX_PAGES ?? "300", "QUARRY_PDF_MAX_PAGES"),
    allowPrivateNetwork: env.QUARRY_ALLOW_PRIVATE_NETWORK === "1" ||
      env.QUARRY_ALLOW_PRIVATE_NETWORK === "true",
    robots: env.QUARRY_ROBOTS === "1" || env.QUARRY_ROBOTS === "true",
    rateLimitMs: parseDuration(env.QUARRY_RATE_LIMIT ?? "1s", "QUARRY_RATE_LIMIT", { minMs: 0 }),
    engines: list(env.QUARRY_ENGINES),
    cooldownMs: parseDuration(env.QUARRY_COOLDOWN ?? "1m", "QUARRY_COOLDOWN"),
    cooldownMaxMs: parseDuration(env.QUARRY_COOLDOWN_MAX ?? "30m", "QUARRY_COOLDOWN_MAX"),
    hedgeDelayMs: parseDuration(env.QUARRY_HEDGE_DELAY ?? "1.5s", "QUARRY_HEDGE_DELAY", {
      minMs: 0,
    }),
    fusion: parseFusion(env.QUARRY_FUSION),
    cacheTtlMs: parseDuration(env.QUARRY_CACHE_TTL ?? "24h", "QUARRY_CACHE_TTL", TTL_BOUNDS),
    blockedDomains: list(env.QUARRY_BLOCKED_DOMAINS) ?? [],
    urls: {
      duckduckgo: trimSlash(env.QUARRY_DDG_URL || "https://html.duckduckgo.com"),
      duckduckgoLite: trimSlash(env.QUARRY_DDG_LITE_URL || "https://lite.duckduckgo.com"),
      bing: trimSlash(env.QUARRY_BING_URL || "https://www.bing.com"),
      mojeek: trimSlash(env.QUARRY_MOJEEK_URL || "https://www.mojeek.com"),
      google: trimSlash(env.QUARRY_GOOGLE_URL || "https://www.google.com"),
      startpage: trimSlash(env.QUARRY_STARTPAGE_URL || "https://www.startpage.com"),
      braveHtml: trimSlash(env.QUARRY_BRAVE_HTML_URL || "https://search.brave.com"),
      wikipedia: trimSlash(env.QUARRY_WIKIPEDIA_URL || "https://{lang}.wikipedia.org"),
      searxng: env.SEARXNG_URL ? trimSlash(env.SEARXNG_URL) : undefined,
      brave: trimSlash(env.QUARRY_BRAVE_URL || "https://api.search.brave.com"),
      exa: trimSlash(env.QUARRY_EXA_URL || "https://api.exa.ai"),
      context7: trimSlash(env.QUARRY_CONTEXT7_URL || "https://context7.com/api"),
      perplexity: trimSlash(env.QUARRY_PERPLEXITY_URL || "https://api.perplexity.ai"),
    },
    keys: {
      brave: env.BRAVE_API_KEY || undefined,
      exa: env.EXA_API_KEY || undefined,
      context7: env.CONTEXT7_API_KEY || undefined,
      perplexity: env.PERPLEXITY_API_KEY || undefined,
    },
    perplexityModel: env.QUARRY_PERPLEXITY_MODEL || "sonar-deep-research",
    token: env.QUARRY_TOKEN || undefined,
    port,
    indexRoots: list(env.QUARRY_INDEX_ROOTS) ?? [],
    browser: browserConfig(env),
    noColor: env.NO_COLOR !== undefined && env.NO_COLOR !== "",
    debug: env.QUARRY_DEBUG === "1" || env.QUARRY_DEBUG === "true",
  };
}

/**
 * Reads the variables of {@linkcode ENV_VARS} from the process environment.
 * A variable the process may not read counts as unset.
 */
export function readEnv(): Env {
  const env: Env = {};
  for (const name of Object.keys(ENV_VARS) as EnvName[]) {
    try {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    } catch {
      // Not permitted: treat as unset rather than failing start-up.
    }
  }
  return env;
}
