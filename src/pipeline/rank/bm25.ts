/**
 * Okapi BM25 over documents that are already token arrays. The index is built
 * once (postings per term, idf, document lengths) and then answers any number
 * of queries; it is used both for a whole corpus (SciFact benchmark) and for
 * the sentences of one page (excerpts).
 * @module
 */

/** BM25 parameters. */
export interface Bm25Config {
  /** Term-frequency saturation. Tuned on SciFact (bench/suite_ranking.ts). @default {2.5} */
  k1: number;
  /** Length normalization, 0 (none) to 1 (full). Tuned on SciFact. @default {0.9} */
  b: number;
}

/**
 * Defaults measured on SciFact with Quarry's tokenizer: nDCG@10 0.697 at k1 2.5, b 0.9,
 * the middle of a plateau (k1 2.25–2.5 × b 0.85–0.95 all ≥ 0.696), against 0.690 at
 * Lucene's k1 1.5, b 0.75 and 0.683 at k1 1.2, b 0.75. Title weighting did not help.
 */
export const DEFAULT_BM25_CONFIG: Readonly<Bm25Config> = Object.freeze({ k1: 2.5, b: 0.9 });

/** Documents containing one term, with the term's count in each. */
interface Postings {
  docs: number[];
  tfs: number[];
  idf: number;
}

/** A built index. Immutable after {@linkcode buildBm25Index}. */
export interface Bm25Index {
  readonly config: Readonly<Bm25Config>;
  readonly docCount: number;
  readonly avgDocLength: number;
  readonly docLengths: Float64Array;
  /** `k1 * (1 - b + b * len / avgLen)` per document, precomputed for scoring. */
  readonly lengthNorms: Float64Array;
  readonly postings: ReadonlyMap<string, Postings>;
}

/** One scored document. */
export interface Bm25Hit {
  /** Position of the document in the array given to {@linkcode buildBm25Index}. */
  doc: number;
  score: number;
}

/**
 * Lucene's idf: never negative, so a term in most documents still counts a
 * little instead of pushing scores down (matters for sentences of one page).
 */
export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/**
 * Builds an index over documents given as token arrays.
 *
 * @example
 * ```ts
 * const index = buildBm25Index([["cat", "sat"], ["dog", "ran"]]);
 * searchBm25(index, ["dog"]); // [{ doc: 1, score: … }]
 * ```
 */
export function buildBm25Index(
  docs: readonly (readonly string[])[],
  config: Partial<Bm25Config> = {},
): Bm25Index {
  const cfg: Bm25Config = { ...DEFAULT_BM25_CONFIG, ...config };
  if (!(cfg.k1 >= 0) || !(cfg.b >= 0 && cfg.b <= 1)) {
    throw new RangeError(`Cannot build BM25 with k1=${cfg.k1}, b=${cfg.b}: need k1 ≥ 0, 0 ≤ b ≤ 1`);
  }
  const postings = new Map<string, Postings>();
  const docLengths = new Float64Array(docs.length);
  let total = 0;
  for (let d = 0; d < docs.length; d++) {
    const tokens = docs[d]!;
    docLengths[d] = tokens.length;
    total += tokens.length;
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, tf] of counts) {
      let p = postings.get(t);
      if (!p) {
        p = { docs: [], tfs: [], idf: 0 };
        postings.set(t, p);
      }
      p.docs.push(d);
      p.tfs.push(tf);
    }
  }
  for (const p of postings.values()) p.idf = bm25Idf(docs.length, p.docs.length);
  const avgDocLength = docs.length === 0 ? 0 : total / docs.length;
  const lengthNorms = new Float64Array(docs.length);
  for (let d = 0; d < docs.length; d++) {
    const rel = avgDocLength === 0 ? 1 : docLengths[d]! / avgDocLength;
    lengthNorms[d] = cfg.k1 * (1 - cfg.b + cfg.b * rel);
  }
  return { config: cfg, docCount: docs.length, avgDocLength, docLengths, lengthNorms, postings };
}

/** Counts each distinct query term: a repeated term weighs more, as in Lucene's OR query. */
function queryTermCounts(query: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of query) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/**
 * Scores every document against the query; documents without a query term score 0.
 * Returns one score per document, in index order. `termWeights` scales terms
 * (default 1), e.g. to count words the page's title already gives for less.
 */
export function scoreBm25(
  index: Bm25Index,
  query: readonly string[],
  termWeights?: ReadonlyMap<string, number>,
): Float64Array {
  const scores = new Float64Array(index.docCount);
  const k1 = index.config.k1;
  for (const [term, qtf] of queryTermCounts(query)) {
    const p = index.postings.get(term);
    if (!p) continue;
    const w = p.idf * qtf * (termWeights?.get(term) ?? 1) * (k1 + 1);
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs[i]!;
      const tf = p.tfs[i]!;
      scores[d] = scores[d]! + (w * tf) / (tf + index.lengthNorms[d]!);
    }
  }
  return scores;
}

/** Up to this many results, top-k is kept by insertion instead of sorting all matches. */
const TOP_K_INSERTION_MAX = 100;

/** Options of {@linkcode searchBm25}. */
export interface SearchBm25Options {
  /** Keep at most this many hits. @default {Infinity} */
  limit?: number;
  /**
   * Breaks score ties; return < 0 to put `a` first. @default document order
   * (lower index first).
   */
  tieBreak?: (a: number, b: number) => number;
}

/**
 * The documents that match at least one query term, best first.
 *
 * @example
 * ```ts
 * searchBm25(index, ["dog"], { limit: 10 });
 * ```
 */
export function searchBm25(
  index: Bm25Index,
  query: readonly string[],
  options: SearchBm25Options = {},
): Bm25Hit[] {
  const scores = scoreBm25(index, query);
  const tie = options.tieBreak ?? ((a: number, b: number) => a - b);
  const before = (x: Bm25Hit, y: Bm25Hit) => y.score - x.score || tie(x.doc, y.doc);
  const limit = options.limit ?? Infinity;
  if (limit <= 0) return [];
  const hits: Bm25Hit[] = [];
  if (limit > TOP_K_INSERTION_MAX) {
    for (let d = 0; d < scores.length; d++) {
      if (scores[d]! > 0) hits.push({ doc: d, score: scores[d]! });
    }
    hits.sort(before);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }
  // A short page of results: keep a sorted list and insert into it. Most documents
  // lose to the last kept hit at once, which beats sorting every match.
  for (let d = 0; d < scores.length; d++) {
    if (!(scores[d]! > 0)) continue;
    const hit = { doc: d, score: scores[d]! };
    if (hits.length === limit && before(hit, hits[limit - 1]!) >= 0) continue;
    let i = hits.length;
    while (i > 0 && before(hit, hits[i - 1]!) < 0) i--;
    hits.splice(i, 0, hit);
    if (hits.length > limit) hits.pop();
  }
  return hits;
}
