/**
 * Scores every sentence of one page against a query: BM25 over the page's
 * sentences plus the heuristics of heuristics.ts.
 * @module
 */
import {
  type Bm25Config,
  bm25Idf,
  buildBm25Index,
  DEFAULT_BM25_CONFIG,
  scoreBm25,
} from "./bm25.ts";
import {
  blockTypePrior,
  combineHeuristics,
  DEFAULT_HEURISTIC_WEIGHTS,
  headingMatch,
  headingProximity,
  type HeuristicScores,
  type HeuristicWeights,
  lengthOutlier,
  metaSection,
  positionPrior,
  queryCoverage,
  termDensity,
  termProximity,
} from "./heuristics.ts";
import type { Sentence } from "./segment.ts";
import type { Tokenizer } from "../../text/tokenize.ts";

/** BM25 weight of a query term that is also in the page title. */
const TITLE_TERM_WEIGHT = 0.3;

/** A sentence with its tokens, signals and combined score. */
export interface ScoredSentence extends Sentence {
  tokens: string[];
  signals: HeuristicScores;
  score: number;
  /** Has a query term in the sentence or its headings: may anchor an excerpt. */
  matches: boolean;
  /** In a meta section or boilerplate: never an anchor. */
  meta: boolean;
}

/** What sentence scoring needs besides the sentences. */
export interface ScoreSentencesOptions {
  tokenizer: Tokenizer;
  /** @default {DEFAULT_HEURISTIC_WEIGHTS} */
  weights?: Readonly<HeuristicWeights>;
  /** @default {DEFAULT_BM25_CONFIG} */
  bm25?: Readonly<Bm25Config>;
  /** The page's title: context of every sentence, since Readability keeps the h1 out of the blocks. */
  title?: string;
}

/**
 * Scores sentences for a query. BM25 is normalized by the page's best sentence so
 * weights mean the same on every page; idf comes from the page itself, which
 * makes words the page repeats everywhere (its topic) count less than rare ones.
 */
export function scoreSentences(
  sentences: readonly Sentence[],
  query: string,
  options: ScoreSentencesOptions,
): ScoredSentence[] {
  const tok = options.tokenizer;
  const weights = options.weights ?? DEFAULT_HEURISTIC_WEIGHTS;
  const queryTokens = tok(query);
  const queryTerms = new Set(queryTokens);
  const tokens = sentences.map((s) => tok(s.text));
  const index = buildBm25Index(tokens, options.bm25 ?? DEFAULT_BM25_CONFIG);
  const titleTokens = tok(options.title ?? "");
  // Words of the title name the page's subject: every sentence is about them, even
  // the few that repeat them, so they must not decide which sentence answers.
  const titleSet = new Set(titleTokens);
  const queryWeights = new Map(
    [...queryTerms].map((t) => [t, titleSet.has(t) ? TITLE_TERM_WEIGHT : 1]),
  );
  const bm25 = scoreBm25(index, queryTokens, queryWeights);
  let best = 0;
  for (const s of bm25) best = Math.max(best, s);
  // A term missing from the page gets the highest idf: the page lacks what is most specific.
  const termWeights = new Map(
    [...queryTerms].map((t) => [t, index.postings.get(t)?.idf ?? bm25Idf(index.docCount, 0)]),
  );
  const headingTokens = new Map<readonly string[], string[]>();
  return sentences.map((s, i) => {
    let ht = headingTokens.get(s.headingPath);
    if (!ht) {
      ht = tok(s.headingPath.join(" "));
      headingTokens.set(s.headingPath, ht);
    }
    const t = tokens[i]!;
    const signals: HeuristicScores = {
      bm25: best > 0 ? bm25[i]! / best : 0,
      coverage: queryCoverage([...t, ...ht, ...titleTokens], queryTerms, termWeights),
      headingMatch: headingMatch(ht, queryTerms, termWeights),
      proximity: termProximity(t, queryTerms),
      headingProximity: headingProximity(s.indexInSection),
      blockType: blockTypePrior(s.blockType),
      density: termDensity(t, queryTerms),
      position: positionPrior(s.position, sentences.length),
      outlier: lengthOutlier(s.text.length),
      metaSection: metaSection(s.headingPath, s.text),
    };
    return {
      ...s,
      tokens: t,
      signals,
      score: combineHeuristics(signals, weights),
      matches: signals.bm25 > 0 || signals.headingMatch > 0,
      meta: signals.metaSection > 0,
    };
  });
}
