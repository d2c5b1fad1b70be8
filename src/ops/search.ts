/**
 * `quarry search <query>`: the main job — search, read the best pages at
 * once, and return the excerpts that answer the question within a budget.
 * @module
 */
import { z } from "zod";
import { TTL_BOUNDS } from "../config.ts";
import {
  EngineChainError,
  fusionCount,
  searchEngines,
  TIME_RANGES,
} from "../pipeline/engines/mod.ts";
import { kvHealth } from "../store/kv/health.ts";
import { parseQuery } from "../pipeline/query.ts";
import { pageBudget } from "../pipeline/rank/excerpts_for.ts";
import { answerFromArchive } from "../pipeline/local.ts";
import { readPages } from "../pipeline/read.ts";
import {
  type Budget,
  fitToTotal,
  research,
  type ResearchDeps,
  type ResearchOutcome,
  type ResearchResult,
} from "../pipeline/research.ts";
import { DEFAULT_CANDIDATE_CONFIG } from "../pipeline/candidates.ts";
import { countTokens, loadTokenizer } from "../text/tokens.ts";
import { QuarryError } from "../errors.ts";
import { type Envelope, failure, type Metadata } from "../envelope.ts";
import { renderPages } from "../render/markdown.ts";
import { archiveReader } from "../store/archive/reader.ts";
import { kvSessions } from "../store/kv/sessions.ts";
import { fetchOptions, readDeps } from "./read_pages.ts";
import { withCache } from "./with_cache.ts";
import {
  budgetField,
  deadlineField,
  diagnosticsField,
  durationField,
  maxTokensField,
  renderField,
  requireBrowser,
  robotsField,
  timeoutField,
} from "./schemas.ts";
import { readUnderRobots } from "./robots.ts";
import { defineOp, type OpContext } from "./types.ts";

/** Most pages one search returns. */
export const MAX_COUNT = 20;

const input = z.object({
  query: z.string().trim().min(1).max(2000).describe(
    'The question or search terms; operators: site:, -site:, "phrase", -term, filetype:, OR',
  ),
  count: z.number().int().min(1).max(MAX_COUNT).default(5).describe("Pages to return"),
  engine: z.string().optional().describe(
    "Engines to ask, in order, comma-separated (default: QUARRY_ENGINES or the keyless chain)",
  ),
  region: z.string().max(20).optional().describe("Region such as us-en or de-de"),
  time: z.enum(TIME_RANGES).optional().describe(
    "Only results from the last day, week, month or year",
  ),
  session: z.string().min(1).max(200).optional().describe(
    "Session key: pages already returned in this session for the same question are skipped",
  ),
  budget: budgetField,
  totalBudget: z.number().int().positive().max(400_000).default(12000).describe(
    "Characters of excerpts for the whole answer",
  ),
  maxTokens: maxTokensField,
  timeout: timeoutField,
  deadline: deadlineField,
  ttl: durationField("How long the answer stays cached, e.g. 1h (default 24h)", TTL_BOUNDS)
    .optional(),
  force: z.boolean().default(false).describe("Bypass the cache and refresh it"),
  fusion: z.boolean().optional().describe(
    "Ask several engines at once (QUARRY_FUSION, else 3) and merge their lists by reciprocal " +
      "rank fusion",
  ),
  local: z.boolean().default(false).describe(
    "Answer from the archive of pages read before, without the network",
  ),
  preferArchive: z.boolean().default(false).describe(
    "Put archived pages that answer the question well ahead of web results",
  ),
  render: renderField,
  robots: robotsField,
  diagnostics: diagnosticsField,
});

type SearchInput = z.infer<typeof input>;

/** How long one search may read: `--deadline`, else the page timeout and a little more. */
function readDeadline(args: SearchInput, timeoutMs: number): number {
  // Search keeps a tight deadline: a slow page is not worth a slow answer.
  return args.deadline ?? timeoutMs + READ_SLACK_MS;
}

function deps(ctx: OpContext, args: SearchInput, kv: Deno.Kv, timeoutMs: number): ResearchDeps {
  const readDeadlineMs = readDeadline(args, timeoutMs);
  const session = args.session;
  const sessions = session === undefined ? undefined : kvSessions(kv, { now: ctx.now });
  return {
    async search(query) {
      const answer = await searchEngines(parseQuery(query), {
        count: Math.min(MAX_COUNT * 2, args.count * 3),
        ...(args.region ? { region: args.region } : {}),
        ...(args.time ? { time: args.time } : {}),
        ...(args.engine ? { engines: args.engine.split(",") } : {}),
        fusion: fusionCount(ctx.config, args.fusion),
      }, { ...ctx, health: kvHealth(kv), progress: ctx.progress });
      return { candidates: answer.candidates, engine: answer.engine, attempts: answer.attempts };
    },
    read: (urls, onPage, deadlineMs) =>
      readUnderRobots(ctx, urls, args.robots || ctx.config.robots, (allowed) =>
        readPages(allowed, {
          fetch: fetchOptions(ctx, { timeoutMs, deadlineMs: deadlineMs ?? readDeadlineMs }),
          query: args.query,
          // Pages robots.txt kept out are not read: an index in `allowed` is one in `urls`.
          onPage: onPage && ((page, i) => onPage(page, urls.indexOf(allowed[i]!))),
          render: args.render,
        }, readDeps(ctx))),
    countTokens,
    ...(sessions && session !== undefined
      ? {
        seen: (urls: string[]) => sessions.seen(session, args.query, urls),
        markSeen: (urls: string[]) => sessions.mark(session, args.query, urls),
      }
      : {}),
    now: ctx.now,
  };
}

function metadata(
  outcome: ResearchOutcome,
  args: SearchInput,
  started: number,
  now: number,
): Metadata {
  const returned = outcome.results.filter((r) => r.status === "ok").length;
  return {
    engine: outcome.engine,
    attempts: outcome.attempts,
    total_available: outcome.totalAvailable,
    returned,
    failed: outcome.results.length - returned,
    tokens_used: outcome.tokensUsed,
    chars_used: outcome.charsUsed,
    ...(args.maxTokens === undefined ? {} : { max_tokens: args.maxTokens }),
    elapsed_ms: now - started,
    ...(args.diagnostics ? { dropped: outcome.dropped } : {}),
  };
}

/** Reading pages for one search may take the per-page timeout and this much more. */
const READ_SLACK_MS = 2000;

/** Archived pages at least this relevant go ahead of web results with --prefer-archive. */
export const PREFER_ARCHIVE_MIN_RELEVANCE = 0.5;

async function fromArchive(
  ctx: OpContext,
  args: SearchInput,
  budget: Budget,
  limit = args.count,
): Promise<ResearchResult[]> {
  return await answerFromArchive(archiveReader(await ctx.stores.archive()), args.query, {
    count: limit,
    budget: pageBudget(budget, args.count),
  });
}

async function computeLocal(
  ctx: OpContext,
  args: SearchInput,
  budget: Budget,
  started: number,
): Promise<Envelope<ResearchResult>> {
  const found = await fromArchive(ctx, args, budget);
  const fitted = fitToTotal(found, budget, countTokens);
  const results = fitted.results.filter((r) => (r.excerpts?.length ?? 0) > 0);
  const metadata = {
    engine: "archive",
    total_available: found.length,
    returned: results.length,
    tokens_used: fitted.tokensUsed,
    chars_used: fitted.charsUsed,
    ...(args.maxTokens === undefined ? {} : { max_tokens: args.maxTokens }),
    elapsed_ms: ctx.now() - started,
  };
  if (results.length === 0) {
    return failure(
      "search",
      new QuarryError("NOT_FOUND", `The archive has no page that answers "${args.query}"`, {
        suggestions: [
          "Search the web without --local",
          "Index folders with `quarry archive index`",
        ],
      }),
      { query: args.query, results: [], metadata },
    );
  }
  return { success: true, command: "search", query: args.query, results, metadata };
}

/**
 * Archived answers first, then web results for other pages, `count` pages in
 * all, refitted to the total budget. Web pages pushed out are listed as dropped.
 */
export function preferArchived(
  archived: ResearchResult[],
  outcome: ResearchOutcome,
  budget: Budget,
  count: number,
): ResearchOutcome {
  // A page the web just read fine is the web's answer; its archived copy would only
  // take the place of a document the web does not have (a report, an indexed file).
  const readNow = new Set(outcome.results.filter((r) => r.status === "ok").map((r) => r.url));
  const good = archived.filter((r) =>
    (r.relevance ?? 0) >= PREFER_ARCHIVE_MIN_RELEVANCE && !readNow.has(r.url)
  ).slice(0, count);
  if (good.length === 0) return outcome;
  const ids = new Set(good.map((r) => r.archive_id));
  const urls = new Set(good.map((r) => r.url));
  const web = outcome.results.filter((r) =>
    !urls.has(r.url) && !(r.archive_id && ids.has(r.archive_id))
  );
  const webOk = web.filter((r) => r.status === "ok");
  const kept = webOk.slice(0, Math.max(0, count - good.length));
  const fitted = fitToTotal([...good, ...kept], budget, countTokens);
  const pushedOut = webOk.slice(kept.length).map((r) => ({
    url: r.url,
    title: r.title,
    status: "filtered" as const,
    reason: "beyond --count once archived pages came first (--prefer-archive)",
  }));
  return {
    ...outcome,
    results: [
      ...fitted.results.filter((r) => (r.excerpts?.length ?? 0) > 0),
      ...web.filter((r) => r.status !== "ok"),
    ],
    dropped: [...outcome.dropped, ...pushedOut],
    tokensUsed: fitted.tokensUsed,
    charsUsed: fitted.charsUsed,
  };
}

/** Archive hits weighed for --prefer-archive: more than `count`, so a web copy cannot hide a report. */
const PREFER_ARCHIVE_POOL = 3;

/**
 * Adds the question to the archive's research history (`archive stats`
 * counts it) with the documents that answered. History is a convenience:
 * a store failure is reported and the answer stands.
 */
async function recordSearch(ctx: OpContext, query: string, results: ResearchResult[]) {
  try {
    const ids = results.flatMap((r) => r.status === "ok" && r.archive_id ? [r.archive_id] : []);
    (await ctx.stores.archive()).recordQuery(
      query,
      "search",
      new Date(ctx.now()).toISOString(),
      ids,
    );
  } catch (error) {
    ctx.progress(`could not record the query: ${error instanceof Error ? error.message : error}`);
  }
}

async function compute(ctx: OpContext, args: SearchInput): Promise<Envelope<ResearchResult>> {
  const envelope = await answer(ctx, args);
  if (envelope.success) await recordSearch(ctx, args.query, envelope.results ?? []);
  return envelope;
}

async function answer(ctx: OpContext, args: SearchInput): Promise<Envelope<ResearchResult>> {
  const started = ctx.now();
  const timeoutMs = args.timeout ?? ctx.config.timeoutMs;
  const budget: Budget = {
    perPage: args.budget,
    total: args.totalBudget,
    ...(args.maxTokens === undefined ? {} : { maxTokens: args.maxTokens }),
  };
  if (args.local) return await computeLocal(ctx, args, budget, started);
  const archived = args.preferArchive
    ? await fromArchive(ctx, args, budget, Math.min(MAX_COUNT, args.count * PREFER_ARCHIVE_POOL))
    : [];
  const kv = await ctx.stores.kv();
  let outcome: ResearchOutcome;
  try {
    outcome = await research(args.query, {
      count: args.count,
      budget,
      candidates: {
        ...DEFAULT_CANDIDATE_CONFIG,
        blockedDomains: [...DEFAULT_CANDIDATE_CONFIG.blockedDomains, ...ctx.config.blockedDomains],
      },
      readDeadlineMs: readDeadline(args, timeoutMs),
    }, deps(ctx, args, kv, timeoutMs));
  } catch (error) {
    const meta = error instanceof EngineChainError
      ? { attempts: error.attempts, elapsed_ms: ctx.now() - started }
      : { elapsed_ms: ctx.now() - started };
    return failure("search", error, { query: args.query, metadata: meta });
  }
  if (archived.length > 0) outcome = preferArchived(archived, outcome, budget, args.count);
  const meta = metadata(outcome, args, started, ctx.now());
  if (meta.returned === 0) {
    const why = outcome.results.length > 0
      ? `none of the ${outcome.results.length} pages read could be used`
      : `the engines found ${outcome.totalAvailable} results and none passed the filters`;
    return failure(
      "search",
      new QuarryError("NOT_FOUND", `No page answered "${args.query}": ${why}`, {
        suggestions: [
          "Rephrase the question with fewer or other words",
          "Run again with --diagnostics to see why each candidate was dropped",
        ],
      }),
      {
        query: args.query,
        results: outcome.results,
        metadata: { ...meta, dropped: outcome.dropped },
      },
    );
  }
  return {
    success: true,
    command: "search",
    query: args.query,
    results: outcome.results,
    metadata: meta,
  };
}

/** The `search` operation. */
export const searchOp = defineOp({
  name: "search",
  command: ["search"],
  summary: "Search the web and return the excerpts of the best pages that answer the question",
  description:
    "Research a question on the web: searches (DuckDuckGo and other engines, with failover), " +
    "reads the best pages at once, and returns for each page the excerpts that answer the " +
    "question, ranked, within a character or token budget (max_tokens). Use it for questions " +
    "that need current or sourced information. Results carry url, title, relevance and " +
    "excerpts; failed pages carry a status and reason. Answers are cached (24 h by default); " +
    "pass a session key to avoid receiving the same page twice. Pages built by JavaScript are " +
    "rendered in a headless browser when one is configured (render).",
  input,
  positionals: [{ field: "query" }],
  short: { count: "n", force: "f" },
  http: { method: "GET", path: "/search" },
  mcp: {
    tool: "web_search",
    title: "Research a question on the web",
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: false },
  },
  async run(ctx, args) {
    if (!args.local) requireBrowser(ctx, args.render);
    const ttlMs = args.ttl ?? ctx.config.cacheTtlMs;
    // A session changes the answer with every call, so it is never served from the cache.
    // Local answers are not cached either: they cost one offline archive query, and the
    // archive is written by fetch, search, deep, `archive index`, the serve-time schedule
    // and other processes sharing QUARRY_HOME; invalidating on every one of those writes
    // would be easy to miss, and a stale local answer silently hides what was indexed.
    return await withCache(ctx, "search", args, {
      ttlMs,
      force: args.force,
      noCache: args.session !== undefined || args.local,
    }, async () => {
      // Loaded only when there is something to count: a cached answer needs no tokenizer.
      await loadTokenizer();
      return await compute(ctx, args);
    });
  },
  render(envelope) {
    return renderPages((envelope.results ?? []) as ResearchResult[]);
  },
});
