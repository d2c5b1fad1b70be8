/**
 * How relevant a whole page is to the query, 0..1: its title and URL against
 * the query's terms, the score of its best excerpt, and where the engine
 * ranked it. Results are sorted by it, deterministically.
 * @module
 */
import { queryCoverage } from "./heuristics.ts";
import { tokenize } from "../../text/tokenize.ts";

/** What is known about a page when its relevance is computed. */
export interface RelevanceInput {
  query: string;
  url: string;
  /** The page's title as extracted. */
  title: string;
  /** The title the engine showed, when it differs; counts with the page's own. */
  engineTitle?: string | undefined;
  /** Score of the page's best excerpt (`rankExcerpts`); absent when the page was not ranked. */
  bestExcerptScore?: number | undefined;
  /** 1-based rank the search engine gave the page; absent for pages asked for by URL. */
  engineRank?: number | undefined;
}

/** Weights of the parts; a part that is absent gives its weight to the others. */
export interface RelevanceWeights {
  title: number;
  url: number;
  excerpt: number;
  rank: number;
}

/** How relevance is computed. */
export interface RelevanceConfig {
  weights: RelevanceWeights;
  /** Excerpt score that maps to 0.5 (scores are squashed as s / (s + this)). @default {1} */
  excerptHalf: number;
  /** Engine rank whose part is 0.5 (1 for the first result, 1 / (1 + (rank-1)/this)). @default {5} */
  rankHalf: number;
}

/**
 * Defaults. The best excerpt weighs most because it is what Quarry actually read;
 * the engine's rank carries its link and click signals; the title beats the URL,
 * whose words are often ids or dates.
 */
export const DEFAULT_RELEVANCE_CONFIG: Readonly<RelevanceConfig> = Object.freeze({
  weights: Object.freeze({ title: 0.3, url: 0.1, excerpt: 0.4, rank: 0.2 }),
  excerptHalf: 1,
  rankHalf: 5,
});

const URL_SEPARATORS = /[^\p{L}\p{N}]+/gu;
const RELEVANCE_DECIMALS = 1000;

/** Words of a URL's host and path, percent-decoded when possible. */
export function urlWords(url: string): string {
  let text = url;
  try {
    const u = new URL(url);
    text = `${u.hostname} ${u.pathname}`;
    text = decodeURIComponent(text);
  } catch {
    // An unparsable URL or bad escape: its raw characters still carry words.
  }
  return text.replace(URL_SEPARATORS, " ");
}

/**
 * Page relevance in 0..1, rounded to 3 places so equal pages compare equal.
 *
 * @example
 * ```ts
 * pageRelevance({
 *   query: "sourdough starter",
 *   url: "https://example.com/sourdough-starter",
 *   title: "How to make a sourdough starter",
 *   bestExcerptScore: 2.1,
 *   engineRank: 1,
 * }); // ≈ 0.87
 * ```
 */
export function pageRelevance(
  input: RelevanceInput,
  config: Readonly<RelevanceConfig> = DEFAULT_RELEVANCE_CONFIG,
): number {
  const terms = new Set(tokenize(input.query));
  const w = config.weights;
  const title = tokenize(`${input.title} ${input.engineTitle ?? ""}`);
  const parts: [number, number][] = [
    [w.title, queryCoverage(title, terms)],
    [w.url, queryCoverage(tokenize(urlWords(input.url)), terms)],
  ];
  if (input.bestExcerptScore !== undefined) {
    const s = Math.max(0, input.bestExcerptScore);
    parts.push([w.excerpt, s / (s + config.excerptHalf)]);
  }
  if (input.engineRank !== undefined && input.engineRank >= 1) {
    parts.push([w.rank, 1 / (1 + (input.engineRank - 1) / config.rankHalf)]);
  }
  const weight = parts.reduce((n, [wt]) => n + wt, 0);
  if (weight <= 0) return 0;
  const value = parts.reduce((n, [wt, v]) => n + wt * v, 0) / weight;
  return Math.round(Math.min(1, Math.max(0, value)) * RELEVANCE_DECIMALS) / RELEVANCE_DECIMALS;
}

/** Something sortable by relevance, with a URL as the stable tie-breaker. */
export interface Ranked {
  url: string;
  relevance?: number | undefined;
}

/**
 * Most relevant first; equal relevance by URL in code-point order (not locale
 * order, which differs between machines). Pages without a relevance come last.
 */
export function compareRelevance(a: Ranked, b: Ranked): number {
  const d = (b.relevance ?? -1) - (a.relevance ?? -1);
  if (d !== 0) return d;
  return a.url < b.url ? -1 : a.url > b.url ? 1 : 0;
}

/** A sorted copy; see {@linkcode compareRelevance}. */
export function sortByRelevance<T extends Ranked>(items: readonly T[]): T[] {
  return [...items].sort(compareRelevance);
}
