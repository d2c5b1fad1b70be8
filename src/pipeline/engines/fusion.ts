/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): a result's
 * score is the sum over the engines that returned it of `1 / (k + rank)`.
 * Results are merged on their canonical URL, and each keeps every engine
 * that returned it with its rank there.
 * @module
 */
import { canonicalUrl } from "../../text/url.ts";
import type { Candidate, EngineRank } from "../types.ts";

/** The usual RRF constant: it damps the weight of the very top ranks. */
export const RRF_K = 60;

interface Fused {
  candidate: Candidate;
  score: number;
  engines: EngineRank[];
  /** Order of first appearance, for stable ties. */
  order: number;
}

/**
 * Merges ranked lists into one, ranked from 1.
 *
 * @example
 * ```ts
 * const fused = fuseRanks([ddgResults, bingResults]);
 * fused[0]?.engines; // [{ engine: "duckduckgo", rank: 1 }, { engine: "bing", rank: 3 }]
 * ```
 */
export function fuseRanks(lists: readonly Candidate[][], k: number = RRF_K): Candidate[] {
  const byKey = new Map<string, Fused>();
  let order = 0;
  for (const list of lists) {
    for (const c of list) {
      const key = canonicalUrl(c.url);
      const seen = byKey.get(key);
      const contribution = 1 / (k + c.rank);
      if (!seen) {
        byKey.set(key, {
          candidate: c,
          score: contribution,
          engines: [{ engine: c.engine, rank: c.rank }],
          order: order++,
        });
        continue;
      }
      seen.score += contribution;
      if (!seen.engines.some((e) => e.engine === c.engine)) {
        seen.engines.push({ engine: c.engine, rank: c.rank });
      }
      // The best-ranked copy speaks for the result; a missing snippet or date is filled in.
      const best = c.rank < seen.candidate.rank ? c : seen.candidate;
      const other = best === c ? seen.candidate : c;
      seen.candidate = {
        ...best,
        snippet: best.snippet || other.snippet,
        ...(best.published ?? other.published
          ? { published: (best.published ?? other.published)! }
          : {}),
      };
    }
  }
  return [...byKey.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((f, i) => ({
      ...f.candidate,
      rank: i + 1,
      engines: f.engines.sort((a, b) => a.rank - b.rank || a.engine.localeCompare(b.engine)),
    }));
}
