/**
 * The research pipeline (DESIGN §1): query → engines → candidate selection →
 * fetch all at once → extract → quality gate → rank → assemble. Every outside
 * part comes in through {@linkcode ResearchDeps}, so the whole flow runs in
 * tests against fakes of the internet only.
 * @module
 */
import {
  type CandidateConfig,
  DEFAULT_CANDIDATE_CONFIG,
  type Dropped,
  selectCandidates,
} from "./candidates.ts";
import { DEFAULT_QUALITY_CONFIG, judgeQuality, type QualityConfig } from "./quality.ts";
import type { PageRead } from "./read.ts";
import type { Excerpt } from "./rank/excerpts.ts";
import {
  bestScore,
  type Budget,
  excerptsFor,
  type PageBudget,
  pageBudget,
} from "./rank/excerpts_for.ts";
import { pageRelevance } from "./rank/relevance.ts";
import { countTokens as countAllTokens } from "../text/tokens.ts";
import type { Article, Candidate, PageStatus } from "./types.ts";

export type { Excerpt } from "./rank/excerpts.ts";
export type { Budget } from "./rank/excerpts_for.ts";

/** One page of a `search` answer (DESIGN §4). */
export interface ResearchResult {
  url: string;
  title: string;
  engine?: string;
  rank?: number;
  status: PageStatus;
  reason?: string;
  relevance?: number;
  excerpts?: Excerpt[];
  tokens?: number;
  archive_id?: string;
  published?: string | null;
  /** Read from the DOM a browser rendered. */
  rendered?: boolean;
}

/** What the engine chain answered. */
export interface SearchAnswer {
  candidates: Candidate[];
  engine: string;
  attempts: unknown[];
}

/** The parts of the pipeline that touch the outside world or other stages. */
export interface ResearchDeps {
  search(query: string): Promise<SearchAnswer>;
  /**
   * Reads pages, calling `onPage` with each as it is ready (its index in
   * `urls`), so it is judged and ranked while slower pages are still coming.
   */
  read(
    urls: string[],
    onPage?: (page: PageRead, index: number) => void,
    deadlineMs?: number,
  ): Promise<PageRead[]>;
  /** Excerpts of one page within its budget. @default {excerptsFor in "search" mode} */
  excerpts?(article: Article, query: string, budget: PageBudget): Excerpt[];
  /** Page relevance in 0..1. @default {pageRelevance} */
  relevance?(candidate: Candidate, article: Article, best: number, query: string): number;
  /** @default {countTokens} */
  countTokens?(text: string): number;
  /** URLs already returned in this session for this query. */
  seen?(urls: string[]): Promise<Set<string>>;
  markSeen?(urls: string[]): Promise<void>;
  now(): number;
}

/** Options of one research run. */
export interface ResearchOptions {
  /** Pages to return. */
  count: number;
  budget: Budget;
  candidates?: CandidateConfig;
  quality?: QualityConfig;
  /** Extra candidates read beyond the pages still wanted, to make up for pages that fail. @default {3} */
  spare?: number;
  /** Time for all reading, from the first page asked for; no wave starts after it. */
  readDeadlineMs?: number;
}

/** What a run produced, before it is wrapped in an envelope. */
export interface ResearchOutcome {
  results: ResearchResult[];
  dropped: Dropped[];
  engine: string;
  attempts: unknown[];
  totalAvailable: number;
  tokensUsed: number;
  charsUsed: number;
}

/**
 * Keeps whole excerpts, in order, while they fit what is left of the total
 * budget; a page whose first excerpt does not fit keeps none.
 */
export function fitToTotal(
  results: ResearchResult[],
  budget: Budget,
  countTokens: (text: string) => number,
): { results: ResearchResult[]; tokensUsed: number; charsUsed: number } {
  let chars = 0;
  let tokens = 0;
  const out = results.map((r) => {
    if (!r.excerpts) return r;
    const kept: Excerpt[] = [];
    let pageTokens = 0;
    for (const e of r.excerpts) {
      const t = countTokens(e.text);
      const fits = budget.maxTokens !== undefined
        ? tokens + t <= budget.maxTokens
        : chars + e.text.length <= budget.total;
      if (!fits) break;
      kept.push(e);
      chars += e.text.length;
      tokens += t;
      pageTokens += t;
    }
    return { ...r, excerpts: kept, tokens: pageTokens };
  });
  return { results: out, tokensUsed: tokens, charsUsed: chars };
}

function failedResult(page: PageRead, c: Candidate): ResearchResult {
  return {
    url: c.url,
    title: page.extracted?.article.title || c.title,
    engine: c.engine,
    rank: c.rank,
    status: page.status,
    ...(page.reason === undefined ? {} : { reason: page.reason }),
  };
}

/** The verdict on one read page: a result, and whether it is good enough to return. */
function judge(
  page: PageRead,
  c: Candidate,
  query: string,
  share: PageBudget,
  options: ResearchOptions,
  deps: ResearchDeps,
): { result: ResearchResult; good: boolean } {
  const withId = {
    ...(page.archiveId === undefined ? {} : { archive_id: page.archiveId }),
    ...(page.rendered ? { rendered: true } : {}),
  };
  if (page.status !== "ok" || !page.extracted) {
    return { result: { ...failedResult(page, c), ...withId }, good: false };
  }
  const article = page.extracted.article;
  const verdict = judgeQuality(article, options.quality ?? DEFAULT_QUALITY_CONFIG);
  if (!verdict.ok) {
    const result = {
      ...failedResult(page, c),
      status: "filtered" as const,
      reason: verdict.reason!,
    };
    return { result: { ...result, ...withId }, good: false };
  }
  const excerpts = deps.excerpts
    ? deps.excerpts(article, query, share)
    : excerptsFor(article, query, share, "search");
  const best = bestScore(excerpts);
  const relevance = deps.relevance ? deps.relevance(c, article, best, query) : pageRelevance({
    query,
    url: c.url,
    title: article.title,
    engineTitle: c.title,
    bestExcerptScore: best,
    engineRank: c.rank,
  });
  return {
    result: {
      url: c.url,
      title: article.title || c.title,
      engine: c.engine,
      rank: c.rank,
      status: "ok",
      relevance,
      excerpts,
      published: article.published ?? c.published ?? null,
      ...withId,
    },
    good: true,
  };
}

/**
 * Reads candidates in waves until `count` pages are good, or the candidates
 * or the time run out; each page is judged and ranked as soon as it is read.
 */
async function readUntilEnough(
  query: string,
  fresh: Candidate[],
  options: ResearchOptions,
  deps: ResearchDeps,
): Promise<{ ok: ResearchResult[]; failed: ResearchResult[] }> {
  const share = pageBudget(options.budget, Math.min(options.count, fresh.length));
  const ok: ResearchResult[] = [];
  const failed: ResearchResult[] = [];
  let next = 0;
  const started = deps.now();
  const left = () =>
    options.readDeadlineMs === undefined
      ? undefined
      : Math.max(0, started + options.readDeadlineMs - deps.now());
  while (next < fresh.length && ok.length < options.count && left() !== 0) {
    const wave = fresh.slice(next, next + options.count - ok.length + (options.spare ?? 3));
    next += wave.length;
    const judged = new Set<number>();
    const take = (page: PageRead, i: number) => {
      if (judged.has(i) || !wave[i]) return;
      judged.add(i);
      const { result, good } = judge(page, wave[i], query, share, options, deps);
      (good ? ok : failed).push(result);
    };
    const pages = await deps.read(wave.map((c) => c.url), take, left());
    // A reader that does not call back (or missed a page) is judged here.
    pages.forEach(take);
  }
  return { ok, failed };
}

/** Runs the pipeline. Failures of single pages are values; only an engine failure throws. */
export async function research(
  query: string,
  options: ResearchOptions,
  deps: ResearchDeps,
): Promise<ResearchOutcome> {
  const answer = await deps.search(query);
  const selection = selectCandidates(
    answer.candidates,
    query,
    options.candidates ?? DEFAULT_CANDIDATE_CONFIG,
  );
  const dropped = [...selection.dropped];
  let fresh = selection.kept;
  if (deps.seen) {
    const seen = await deps.seen(fresh.map((c) => c.url));
    for (const c of fresh.filter((c) => seen.has(c.url))) {
      dropped.push({
        url: c.url,
        title: c.title,
        engine: c.engine,
        rank: c.rank,
        status: "duplicate",
        reason: "already returned in this session",
      });
    }
    fresh = fresh.filter((c) => !seen.has(c.url));
  }
  const { ok, failed } = await readUntilEnough(query, fresh, options, deps);
  // Deterministic: relevance, then engine rank, then URL.
  ok.sort((a, b) =>
    (b.relevance ?? 0) - (a.relevance ?? 0) || (a.rank ?? 0) - (b.rank ?? 0) ||
    a.url.localeCompare(b.url)
  );
  failed.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0) || a.url.localeCompare(b.url));
  const chosen = ok.slice(0, options.count);
  for (const extra of ok.slice(options.count)) {
    dropped.push({
      url: extra.url,
      title: extra.title,
      status: "filtered",
      reason: "beyond --count",
    });
  }
  const fitted = fitToTotal(chosen, options.budget, deps.countTokens ?? countAllTokens);
  const returned = fitted.results.filter((r) => (r.excerpts?.length ?? 0) > 0);
  for (const r of fitted.results.filter((r) => (r.excerpts?.length ?? 0) === 0)) {
    dropped.push({
      url: r.url,
      title: r.title,
      status: "filtered",
      reason: "no excerpt fit the budget",
    });
  }
  if (deps.markSeen) await deps.markSeen(returned.map((r) => r.url));
  return {
    results: [...returned, ...failed],
    dropped,
    engine: answer.engine,
    attempts: answer.attempts,
    // Distinct candidates the engine offered, whatever became of them.
    totalAvailable: answer.candidates.length -
      selection.dropped.filter((d) => d.status === "duplicate").length,
    tokensUsed: fitted.tokensUsed,
    charsUsed: fitted.charsUsed,
  };
}
