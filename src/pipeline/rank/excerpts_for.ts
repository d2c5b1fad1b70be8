/**
 * Excerpts of one page within its share of the budget: the one glue between
 * an article and {@linkcode rankExcerpts} that `search`, `fetch --query` and
 * answers from the archive share, with the rule that shares a token budget
 * between pages.
 * @module
 */
import { countTokens } from "../../text/tokens.ts";
import type { Article } from "../types.ts";
import { type Excerpt, type ExcerptMode, rankExcerpts } from "./excerpts.ts";

/** Budgets of one answer. */
export interface Budget {
  /** Characters of excerpts for each page. */
  perPage: number;
  /** Characters for the whole answer. */
  total: number;
  /** Tokens for the whole answer; replaces the character budgets when set. */
  maxTokens?: number;
}

/** What one page may take: characters, or tokens when the answer is counted in tokens. */
export interface PageBudget {
  chars: number;
  tokens?: number;
}

/**
 * One page's share of an answer: its character budget, and an even share of
 * the answer's tokens among the pages asked for (at least one token).
 *
 * @example
 * ```ts
 * pageBudget({ perPage: 3000, total: 12000, maxTokens: 1000 }, 3); // { chars: 3000, tokens: 333 }
 * ```
 */
export function pageBudget(budget: Budget, pages: number): PageBudget {
  if (budget.maxTokens === undefined) return { chars: budget.perPage };
  return {
    chars: budget.perPage,
    tokens: Math.max(1, Math.floor(budget.maxTokens / Math.max(1, pages))),
  };
}

/**
 * The excerpts of an article that answer the query, within the page's budget:
 * `search` keeps the few best passages, `strict` fills the budget in order.
 */
export function excerptsFor(
  article: Article,
  query: string,
  budget: PageBudget,
  mode: ExcerptMode,
): Excerpt[] {
  return rankExcerpts(article.blocks, query, {
    mode,
    title: article.title,
    budgetChars: budget.chars,
    ...(budget.tokens === undefined
      ? {}
      : { tokenBudget: { max: budget.tokens, count: countTokens } }),
  });
}

/** Score of the best excerpt, 0 for none: what page relevance weighs. */
export function bestScore(excerpts: readonly Excerpt[]): number {
  return excerpts.reduce((m, e) => Math.max(m, e.score), 0);
}
