/**
 * Sentence-level signals that BM25 alone misses: where a sentence sits, what
 * kind of block it is in, how its query terms cluster, and whether it is page
 * furniture (comments, references, cookie banners). Each signal is a small
 * named function returning 0..1; {@linkcode combineHeuristics} weighs them.
 * @module
 */
import type { Block } from "../types.ts";

/** Weight of each signal in a sentence's score. Penalties are subtracted. */
export interface HeuristicWeights {
  /** BM25 of the sentence, divided by the best BM25 on the page. */
  bm25: number;
  /** {@linkcode queryCoverage}. */
  coverage: number;
  /** {@linkcode headingMatch}. */
  headingMatch: number;
  /** {@linkcode termProximity}. */
  proximity: number;
  /** {@linkcode headingProximity}. */
  headingProximity: number;
  /** {@linkcode blockTypePrior}. */
  blockType: number;
  /** {@linkcode termDensity}. */
  density: number;
  /** {@linkcode positionPrior}. */
  position: number;
  /** Penalty: {@linkcode lengthOutlier}. */
  outlier: number;
  /** Penalty: {@linkcode metaSection}. */
  metaSection: number;
}

/**
 * Defaults. Lexical match (BM25, coverage) dominates; heading match is the next
 * strongest because a section titled with the query usually answers it; the
 * meta-section penalty outweighs any match, so a "References" list never wins.
 */
export const DEFAULT_HEURISTIC_WEIGHTS: Readonly<HeuristicWeights> = Object.freeze({
  bm25: 1,
  coverage: 0.8,
  headingMatch: 0.5,
  proximity: 0.3,
  headingProximity: 0.15,
  blockType: 0.15,
  density: 0.2,
  position: 0.1,
  outlier: 0.3,
  metaSection: 1.5,
});

/** The value of each signal for one sentence. */
export type HeuristicScores = Readonly<Record<keyof HeuristicWeights, number>>;

/** Weighted sum of the signals; penalties (`outlier`, `metaSection`) count against. */
export function combineHeuristics(
  scores: HeuristicScores,
  weights: Readonly<HeuristicWeights> = DEFAULT_HEURISTIC_WEIGHTS,
): number {
  return weights.bm25 * scores.bm25 + weights.coverage * scores.coverage +
    weights.headingMatch * scores.headingMatch + weights.proximity * scores.proximity +
    weights.headingProximity * scores.headingProximity + weights.blockType * scores.blockType +
    weights.density * scores.density + weights.position * scores.position -
    weights.outlier * scores.outlier - weights.metaSection * scores.metaSection;
}

/** How much each query term is worth, e.g. its idf on the page; absent terms count 1. */
export type TermWeights = ReadonlyMap<string, number>;

/** Share of the query's weight whose terms occur in the sentence's heading path. */
export function headingMatch(
  headingTokens: readonly string[],
  queryTerms: ReadonlySet<string>,
  weights?: TermWeights,
): number {
  return queryCoverage(headingTokens, queryTerms, weights);
}

/**
 * Share of the query's weight whose terms occur in `tokens`. Weighted by idf, a
 * term the whole page repeats (its subject: "lighthouse" on a lighthouse page)
 * counts for little, and the rare term that singles out the answer counts most.
 * Callers pass the sentence's tokens with those of its title and headings, so a
 * sentence is judged as read in its place ("187 steps" under "Skerrow Lighthouse").
 */
export function queryCoverage(
  tokens: readonly string[],
  queryTerms: ReadonlySet<string>,
  weights?: TermWeights,
): number {
  if (queryTerms.size === 0) return 0;
  const seen = new Set<string>();
  for (const t of tokens) if (queryTerms.has(t)) seen.add(t);
  let got = 0;
  let total = 0;
  for (const t of queryTerms) {
    const w = weights?.get(t) ?? 1;
    total += w;
    if (seen.has(t)) got += w;
  }
  return total > 0 ? got / total : 0;
}

/**
 * How tightly the query terms cluster: the shortest window of tokens holding
 * every distinct query term the sentence has, as (distinct terms) / (window
 * length). 1 when they stand side by side; 0 with fewer than two terms.
 */
export function termProximity(tokens: readonly string[], queryTerms: ReadonlySet<string>): number {
  const present = new Set(tokens.filter((t) => queryTerms.has(t)));
  if (present.size < 2) return 0;
  const counts = new Map<string, number>();
  let have = 0;
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < tokens.length; right++) {
    const t = tokens[right]!;
    if (!present.has(t)) continue;
    const c = counts.get(t) ?? 0;
    counts.set(t, c + 1);
    if (c === 0) have++;
    while (have === present.size) {
      best = Math.min(best, right - left + 1);
      const l = tokens[left++]!;
      if (!present.has(l)) continue;
      const lc = counts.get(l)! - 1;
      counts.set(l, lc);
      if (lc === 0) have--;
    }
  }
  return present.size / best;
}

/** Closeness to the section's heading: 1 for its first sentence, then 1/2, 1/3… */
export function headingProximity(indexInSection: number): number {
  return 1 / (1 + Math.max(0, indexInSection));
}

/** Prior of each block type: prose answers questions more often than cells or code. */
export const BLOCK_TYPE_PRIORS: Readonly<Record<Block["type"], number>> = Object.freeze({
  p: 1,
  li: 0.8,
  blockquote: 0.6,
  td: 0.5,
  pre: 0.4,
  heading: 0,
});

/** {@linkcode BLOCK_TYPE_PRIORS} of the sentence's block. */
export function blockTypePrior(type: Block["type"]): number {
  return BLOCK_TYPE_PRIORS[type];
}

/** Share of the sentence's tokens that are query terms. */
export function termDensity(tokens: readonly string[], queryTerms: ReadonlySet<string>): number {
  if (tokens.length === 0) return 0;
  let n = 0;
  for (const t of tokens) if (queryTerms.has(t)) n++;
  return n / tokens.length;
}

/** Sentences shorter than this (characters) are fragments: captions, labels, "Read more". */
export const SHORT_SENTENCE_CHARS = 30;
/** Sentences longer than this are run-ons, cells or code dumps that eat the budget. */
export const LONG_SENTENCE_CHARS = 400;
/** Past LONG_SENTENCE_CHARS the penalty reaches 1 after this many more characters. */
const LONG_PENALTY_SPAN = 800;

/** 0 for a sentence of ordinary length, rising to 1 for very short or very long ones. */
export function lengthOutlier(chars: number): number {
  if (chars < SHORT_SENTENCE_CHARS) return (SHORT_SENTENCE_CHARS - chars) / SHORT_SENTENCE_CHARS;
  if (chars > LONG_SENTENCE_CHARS) {
    return Math.min(1, (chars - LONG_SENTENCE_CHARS) / LONG_PENALTY_SPAN);
  }
  return 0;
}

/** Headings of sections that are about the page rather than its subject. */
export const META_HEADING =
  /^(?:related(?: articles| posts| stories| content| links| reading)?|comments?|\d+ comments?|responses|replies|leave a (?:reply|comment)|references|bibliography|citations|footnotes|sources|see also|further reading|external links|share(?: this(?: article| post)?)?|about the author|more from|more stories|recommended(?: for you)?|you may also like|read (?:more|next)|popular(?: posts)?|trending|newsletter|subscribe|advertisement|sponsored(?: content)?|navigation|menu|footer|cookies?(?: policy| settings)?|privacy(?: policy)?|tags|categories|archives)\b/i;

/** Sentences that are page furniture wherever they appear. */
export const BOILERPLATE_TEXT =
  /\b(?:we use cookies|(?:this|our) (?:web)?site uses cookies|accept (?:all )?cookies|cookie (?:policy|settings|preferences)|privacy policy|terms of (?:use|service)|all rights reserved|sign up for (?:our|the) newsletter|subscribe to (?:our|the) newsletter|skip to (?:main )?content|follow us on|share (?:this|on) (?:article|story|post|facebook|twitter|x)|log ?in to (?:comment|reply)|posted in|filed under|enable javascript)\b|©\s?\d{4}/i;

/** 1 when the sentence is in a meta section (comments, references…) or is boilerplate. */
export function metaSection(headingPath: readonly string[], text: string): number {
  for (const h of headingPath) if (META_HEADING.test(h.trim())) return 1;
  return BOILERPLATE_TEXT.test(text) ? 1 : 0;
}

/** Earlier is slightly better (articles state their point first): 1 at the top, → 0 at the end. */
export function positionPrior(position: number, total: number): number {
  return total <= 1 ? 1 : 1 - position / total;
}
