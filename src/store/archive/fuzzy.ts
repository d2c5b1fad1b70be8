/**
 * `--fuzzy`: each query word also matches archived words that contain it
 * (substrings) or differ from it by a typo or two. Candidates come from a
 * trigram FTS5 index over the archive's vocabulary; an edit-distance
 * threshold keeps only the close ones. The expanded query then runs on the
 * ordinary index, so ranking and highlighting work as usual.
 * @module
 */
import { stemmer } from "stemmer";
import { EVERY_TOKEN, type ParsedQuery, type QueryNode } from "./query.ts";
import type { Sql } from "./sql.ts";

/** How far fuzzy matching reaches. */
export interface FuzzyConfig {
  /** Trigram candidates read per word. @default {400} */
  candidates: number;
  /** Words added per query word. @default {12} */
  maxExpansions: number;
  /** Shortest word matched as a substring; shorter ones match too much. @default {4} */
  minSubstring: number;
  /** Typos allowed: 1 for words of up to `longWord` letters, 2 beyond. @default {7} */
  longWord: number;
}

/** Defaults of {@linkcode FuzzyConfig}. */
export const DEFAULT_FUZZY_CONFIG: FuzzyConfig = {
  candidates: 400,
  maxExpansions: 12,
  minSubstring: 4,
  longWord: 7,
};

/** Shortest word a trigram index can look up. */
const TRIGRAM = 3;
const META_DIRTY = "fuzzy_dirty";

/** Marks the vocabulary stale; the next fuzzy search refreshes it. */
export function markVocabularyStale(sql: Sql): void {
  sql.run(
    "INSERT INTO archive_meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = '1'",
    META_DIRTY,
  );
}

/** Adds words new to the archive to the trigram vocabulary, when any were added. */
export function refreshVocabulary(sql: Sql): void {
  const flag = sql.get<{ value: string }>(
    "SELECT value FROM archive_meta WHERE key = ?",
    META_DIRTY,
  );
  if (flag?.value !== "1") return;
  sql.transaction(() => {
    sql.run(
      "INSERT OR IGNORE INTO fuzzy_terms(term) SELECT term FROM document_vocab WHERE term <> ?",
      EVERY_TOKEN,
    );
    sql.run("UPDATE archive_meta SET value = '0' WHERE key = ?", META_DIRTY);
  });
}

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), capped at `max + 1`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, prev2[j - 2]! + 1);
      }
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

function trigrams(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + TRIGRAM <= word.length; i++) out.add(word.slice(i, i + TRIGRAM));
  return [...out];
}

/** Archived words close to `word`: containing it, or within the typo budget of its stem. */
export function similarTerms(sql: Sql, word: string, config = DEFAULT_FUZZY_CONFIG): string[] {
  if (word.length < TRIGRAM) return [];
  const stem = stemmer(word);
  const budget = word.length > config.longWord ? 2 : 1;
  const scored = new Map<string, number>();
  if (word.length >= config.minSubstring) {
    const contains = sql.all<{ term: string }>(
      "SELECT term FROM fuzzy_trigram WHERE fuzzy_trigram MATCH ? ORDER BY length(term) LIMIT ?",
      `"${word}"`,
      config.candidates,
    );
    for (const { term } of contains) scored.set(term, 0.5);
  }
  const anyTrigram = trigrams(stem.length >= TRIGRAM ? stem : word).map((t) => `"${t}"`)
    .join(" OR ");
  const near = sql.all<{ term: string }>(
    "SELECT term FROM fuzzy_trigram WHERE fuzzy_trigram MATCH ? ORDER BY rank LIMIT ?",
    anyTrigram,
    config.candidates,
  );
  for (const { term } of near) {
    const distance = Math.min(editDistance(stem, term, budget), editDistance(word, term, budget));
    if (distance <= budget) scored.set(term, Math.min(scored.get(term) ?? distance, distance));
  }
  scored.delete(stem);
  scored.delete(word);
  return [...scored.entries()]
    .sort((a, b) => a[1] - b[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))
    .slice(0, config.maxExpansions)
    .map(([term]) => term);
}

/**
 * The query with each single-word term widened to its close words; returns
 * the new query and, per word, the words added.
 */
export function expandFuzzy(
  sql: Sql,
  query: ParsedQuery,
  config = DEFAULT_FUZZY_CONFIG,
): { query: ParsedQuery; expansions: Record<string, string[]> } {
  const expansions: Record<string, string[]> = {};
  const widen = (node: QueryNode): QueryNode => {
    if (node.kind === "any") return { kind: "any", of: node.of.map(widen) };
    if (node.tokens.length !== 1 || node.prefix) return node;
    const word = node.tokens[0]!;
    const terms = similarTerms(sql, word, config);
    if (terms.length === 0) return node;
    expansions[word] = terms;
    return {
      kind: "any",
      // Vocabulary words are stems, and Porter stemming is not idempotent
      // ("caramelis" → "carameli"): as a prefix, a stem still finds its words.
      of: [node, ...terms.map((t): QueryNode => ({ kind: "term", tokens: [t], prefix: true }))],
    };
  };
  return {
    query: { should: query.should.map(widen), must: query.must.map(widen), not: query.not },
    expansions,
  };
}
