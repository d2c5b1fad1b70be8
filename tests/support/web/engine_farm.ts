/**
 * A loopback engine farm that blocks the way the real engines do, for the
 * search-storm benchmark and for tests. Each engine lives under
 * `/farm/<engine>` with its real path (`/html/`, `/search`, `/w/api.php`…)
 * and answers any query with generated results in its own markup, until its
 * rule says no: too many requests in a window (DuckDuckGo's anomaly page,
 * Mojeek's 403, 429 with Retry-After), a share of requests (Bing's
 * challenge), or always (Google's CAPTCHA). The farm keeps its own state
 * and counts what it answered.
 *
 * Results: a query names its topic as `t<N>`; topic N has relevant pages
 * `https://site<j>.farm.test/t<N>/<j>` (j from 0, lower is more relevant;
 * {@linkcode RELEVANT} of them).
 * Every engine returns them in a noisy order of its own, drops some and
 * mixes in junk pages of its own, so engines disagree the way real ones do.
 * @module
 */
import type { EngineName } from "../../../src/pipeline/engines/types.ts";
import type { Route } from "../fixture_web.ts";
import { type BlockStyle, type FarmResult, renderBlock, renderResults } from "./farm_pages.ts";

/** When an engine blocks. */
export type FarmBlock =
  | { kind: "none" }
  | { kind: "always"; style: BlockStyle }
  | { kind: "share"; share: number; style: BlockStyle }
  | {
    kind: "rate";
    /** Requests allowed per window… */
    limit: number;
    windowMs: number;
    /** …and how long the engine keeps blocking once the limit is passed. */
    penaltyMs: number;
    style: BlockStyle;
    /** Retry-After (seconds) sent with `throttle`. */
    retryAfter?: number;
  };

/** How one farm engine behaves. */
export interface FarmRule {
  block: FarmBlock;
  /** Answer delay range, milliseconds. */
  latencyMs: [number, number];
  /** Share of answers that are slow, and how slow. */
  slow?: { share: number; ms: number };
}

/** What the farm counted for one engine. */
export interface FarmCounts {
  requests: number;
  answered: number;
  /** Requests answered with a block. */
  blocked: number;
}

/** Relevant pages per topic; the engines return some of them. */
export const RELEVANT = 60;
const PAGE = 10;
const TOPIC = /\bt(\d+)\b/;

/** Which slice of the list a request asks for: first result (from 0) and page size. */
type Slice = (p: URLSearchParams) => { offset: number; size: number };

/** Path of each engine under its prefix, and how it names its page, as the real one does. */
const ENDPOINT: Partial<Record<EngineName, { path: string; slice: Slice }>> = {
  duckduckgo: { path: "/html/", slice: (p) => ({ offset: Number(p.get("s") ?? 0), size: PAGE }) },
  "duckduckgo-lite": {
    path: "/lite/",
    slice: (p) => ({ offset: Number(p.get("s") ?? 0), size: PAGE }),
  },
  // Bing honours `count` (up to 50) and counts `first` from 1.
  bing: {
    path: "/search",
    slice: (p) => ({
      offset: Number(p.get("first") ?? 1) - 1,
      size: Math.min(50, Number(p.get("count") ?? PAGE)),
    }),
  },
  mojeek: {
    path: "/search",
    slice: (p) => ({ offset: Number(p.get("s") ?? 1) - 1, size: PAGE }),
  },
  google: { path: "/search", slice: () => ({ offset: 0, size: PAGE }) },
  startpage: {
    path: "/sp/search",
    slice: (p) => ({ offset: (Number(p.get("page") ?? 1) - 1) * PAGE, size: PAGE }),
  },
  // Brave's page shows 20 and counts its offset in pages.
  "brave-html": {
    path: "/search",
    slice: (p) => ({ offset: Number(p.get("offset") ?? 0) * 20, size: 20 }),
  },
  wikipedia: {
    path: "/w/api.php",
    slice: (p) => ({
      offset: Number(p.get("sroffset") ?? 0),
      size: Number(p.get("srlimit") ?? 20),
    }),
  },
};

/** A small deterministic hash, so noise is the same in every run. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) / 4294967296;
}

/** The ranked list an engine gives for a topic: relevant pages, noisy, with its own junk. */
export function engineList(engine: string, topic: number): FarmResult[] {
  const scored = Array.from(
    { length: RELEVANT },
    (_, j) => ({ j, key: hash(`${engine}:${topic}:${j}`) }),
  )
    // A fifth of the relevant pages are missing from each engine.
    .filter((x) => x.key > 0.2)
    // Rank noise: a page moves a few places either way.
    .map((x) => ({ ...x, score: x.j + (hash(`n:${engine}:${topic}:${x.j}`) - 0.5) * 8 }));
  const list: { url: string; title: string; score: number }[] = scored.map((x) => ({
    url: `https://site${x.j}.farm.test/t${topic}/${x.j}`,
    title: `Topic ${topic}, page ${x.j}`,
    score: x.score,
  }));
  // Junk that only this engine ranks, placed among the top results.
  for (let k = 0; k < 4; k++) {
    list.push({
      url: `https://junk-${engine}-${k}.farm.test/t${topic}`,
      title: `Unrelated page ${k}`,
      score: hash(`j:${engine}:${topic}:${k}`) * 12,
    });
  }
  return list.sort((a, b) => a.score - b.score).map((r) => ({
    url: r.url,
    title: r.title,
    snippet: `About topic ${topic}.`,
  }));
}

/** A running farm: its route for a fixture web and its counts. */
export interface EngineFarm {
  route: Route;
  counts: Record<string, FarmCounts>;
  /** Base URL environment for every farm engine on a web at `origin`. */
  env(origin: string): Record<string, string>;
}

const ENV_NAME: Partial<Record<EngineName, string>> = {
  duckduckgo: "QUARRY_DDG_URL",
  "duckduckgo-lite": "QUARRY_DDG_LITE_URL",
  bing: "QUARRY_BING_URL",
  mojeek: "QUARRY_MOJEEK_URL",
  google: "QUARRY_GOOGLE_URL",
  startpage: "QUARRY_STARTPAGE_URL",
  "brave-html": "QUARRY_BRAVE_HTML_URL",
  wikipedia: "QUARRY_WIKIPEDIA_URL",
};

const FARM_PATH = /^\/farm\/([a-z-]+)(\/.*)$/;

/**
 * Starts a farm with a rule per engine. `now` is the farm's clock and
 * `sleep` its delay (the bench passes the wall clock).
 */
export function engineFarm(
  rules: Partial<Record<EngineName, FarmRule>>,
  deps: { now: () => number; sleep: (ms: number) => Promise<void> },
): EngineFarm {
  const counts: Record<string, FarmCounts> = {};
  const windows = new Map<string, number[]>();
  const penalties = new Map<string, number>();
  let serial = 0;

  function blocked(engine: string, block: FarmBlock): boolean {
    const now = deps.now();
    switch (block.kind) {
      case "none":
        return false;
      case "always":
        return true;
      case "share":
        return hash(`share:${engine}:${serial++}`) < block.share;
      case "rate": {
        if ((penalties.get(engine) ?? 0) > now) return true;
        const recent = (windows.get(engine) ?? []).filter((t) => t > now - block.windowMs);
        recent.push(now);
        windows.set(engine, recent);
        if (recent.length <= block.limit) return false;
        penalties.set(engine, now + block.penaltyMs);
        return true;
      }
    }
  }

  const route: Route = async (req, url) => {
    const match = FARM_PATH.exec(url.pathname);
    const engine = match?.[1] as EngineName | undefined;
    const rule = engine ? rules[engine] : undefined;
    const endpoint = engine ? ENDPOINT[engine] : undefined;
    if (!match || !engine || !rule || !endpoint || match[2] !== endpoint.path) return undefined;
    const params = req.method === "POST" ? new URLSearchParams(await req.text()) : url.searchParams;
    const q = params.get("q") ?? params.get("srsearch") ?? "";
    const c = counts[engine] ??= { requests: 0, answered: 0, blocked: 0 };
    c.requests++;
    const [lo, hi] = rule.latencyMs;
    const slow = rule.slow && hash(`slow:${engine}:${c.requests}`) < rule.slow.share;
    await deps.sleep(slow ? rule.slow!.ms : lo + (hi - lo) * hash(`lat:${engine}:${c.requests}`));
    if (blocked(engine, rule.block)) {
      c.blocked++;
      const b = rule.block as Exclude<FarmBlock, { kind: "none" }>;
      return renderBlock(b.style, b.kind === "rate" ? b.retryAfter : undefined);
    }
    c.answered++;
    const topic = Number(TOPIC.exec(q)?.[1] ?? -1);
    const { offset, size } = endpoint.slice(params);
    const list = topic < 0 ? [] : engineList(engine, topic).slice(offset, offset + size);
    return renderResults(engine, q, list);
  };

  return {
    route,
    counts,
    env(origin) {
      const env: Record<string, string> = {};
      for (const engine of Object.keys(rules) as EngineName[]) {
        const name = ENV_NAME[engine];
        if (name) env[name] = `${origin}/farm/${engine}`;
      }
      return env;
    },
  };
}

/**
 * Rules modelled on how the real engines block a keyless client, with time
 * scaled by `scale` (20 makes a minute three seconds): DuckDuckGo HTML's
 * anomaly page after 3 requests a minute, Lite's after 5, Bing's challenge
 * on a share of requests, Google's CAPTCHA always, Mojeek's 403 over 4 a
 * minute, and Startpage, Brave and Wikipedia throttled with 429 and
 * Retry-After.
 */
export function realisticRules(scale: number): Partial<Record<EngineName, FarmRule>> {
  const minute = 60_000 / scale;
  const retry = Math.max(1, Math.round(60 / scale));
  const latency: [number, number] = [80, 400];
  const slow = { share: 0.05, ms: 2500 };
  return {
    duckduckgo: {
      block: { kind: "rate", limit: 3, windowMs: minute, penaltyMs: 2 * minute, style: "anomaly" },
      latencyMs: latency,
      slow,
    },
    "duckduckgo-lite": {
      block: { kind: "rate", limit: 5, windowMs: minute, penaltyMs: 2 * minute, style: "anomaly" },
      latencyMs: latency,
      slow,
    },
    bing: { block: { kind: "share", share: 0.3, style: "challenge" }, latencyMs: latency, slow },
    google: { block: { kind: "always", style: "captcha" }, latencyMs: latency },
    mojeek: {
      block: { kind: "rate", limit: 4, windowMs: minute, penaltyMs: minute, style: "forbidden" },
      latencyMs: [150, 600],
      slow,
    },
    startpage: {
      block: {
        kind: "rate",
        limit: 4,
        windowMs: minute,
        penaltyMs: minute,
        style: "throttle",
        retryAfter: retry,
      },
      latencyMs: [200, 700],
      slow,
    },
    "brave-html": {
      block: {
        kind: "rate",
        limit: 5,
        windowMs: minute,
        penaltyMs: minute,
        style: "throttle",
        retryAfter: retry,
      },
      latencyMs: latency,
      slow,
    },
    wikipedia: {
      block: {
        kind: "rate",
        limit: 10,
        windowMs: minute,
        penaltyMs: minute / 2,
        style: "throttle",
        retryAfter: retry,
      },
      latencyMs: [50, 200],
    },
  };
}
