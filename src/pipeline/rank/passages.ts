/**
 * Passages: runs of consecutive sentences of one section, grown around anchor
 * sentences. Merging, de-duplication and budget-bounded assembly live here so
 * excerpts.ts reads as the algorithm's outline.
 * @module
 */
import type { ScoredSentence } from "./score.ts";
import { PRE_JOIN } from "./segment.ts";
import type { CountTokens } from "./tokens.ts";

/** Sentences `start..end` (inclusive) of one section. */
export interface Passage {
  start: number;
  end: number;
  score: number;
  /** Set when the passage was cut to fit the budget: its text, ending in "…". */
  cut?: string;
}

/** A budget in characters and, optionally, tokens. Both are hard limits. */
export interface Budget {
  chars: number;
  tokens?: { max: number; count: CountTokens };
}

/** What a text costs against a {@linkcode Budget}. */
export interface Cost {
  chars: number;
  tokens: number;
}

/** Extra score a merged passage gets for each anchor beyond its best one. */
const EXTRA_ANCHOR_BONUS = 0.1;
/** A cut passage shorter than this is not worth showing. */
const MIN_CUT_CHARS = 80;
const ELLIPSIS = "…";
const NON_WORD = /[^\p{L}\p{N}]+/gu;

/** What joins two neighbouring sentences: a space within a block, a newline between blocks. */
function joiner(a: ScoredSentence, b: ScoredSentence): string {
  if (a.blockIndex !== b.blockIndex) return "\n";
  return b.blockType === "pre" ? PRE_JOIN : " ";
}

/** Text of sentences `start..end` (or the cut text of a passage that was cut). */
export function renderPassage(sents: readonly ScoredSentence[], p: Passage): string {
  if (p.cut !== undefined) return p.cut;
  let out = sents[p.start]!.text;
  for (let i = p.start + 1; i <= p.end; i++) {
    out += joiner(sents[i - 1]!, sents[i]!) + sents[i]!.text;
  }
  return out;
}

/** Cost of a text against a budget. */
export function costOf(text: string, budget: Budget): Cost {
  return { chars: text.length, tokens: budget.tokens ? budget.tokens.count(text) : 0 };
}

/** Whether `used + extra` stays within the budget. */
export function fits(used: Cost, extra: Cost, budget: Budget): boolean {
  return used.chars + extra.chars <= budget.chars &&
    (!budget.tokens || used.tokens + extra.tokens <= budget.tokens.max);
}

/** The passage around an anchor: `before`/`after` neighbours, never leaving its section. */
export function expand(
  sents: readonly ScoredSentence[],
  anchor: number,
  before: number,
  after: number,
): Passage {
  const section = sents[anchor]!.section;
  let start = anchor;
  let end = anchor;
  while (start > anchor - before && start > 0 && sents[start - 1]!.section === section) start--;
  while (end < anchor + after && end + 1 < sents.length && sents[end + 1]!.section === section) {
    end++;
  }
  return { start, end, score: sents[anchor]!.score };
}

/** Merges passages that overlap or touch within one section; the best anchor scores. */
export function mergePassages(
  sents: readonly ScoredSentence[],
  passages: readonly Passage[],
): Passage[] {
  const sorted = [...passages].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Passage[] = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (last && p.start <= last.end + 1 && sents[p.start]!.section === sents[last.end]!.section) {
      last.end = Math.max(last.end, p.end);
      last.score = Math.max(last.score, p.score) + EXTRA_ANCHOR_BONUS;
    } else {
      out.push({ ...p });
    }
  }
  return out;
}

/** Lowercase words only, for duplicate detection across markup and punctuation. */
function normalize(text: string): string {
  return ` ${text.toLowerCase().replace(NON_WORD, " ").trim()} `;
}

/**
 * Drops passages whose words are contained in another passage (pages repeat a
 * summary, a pull quote, a caption). The container stays, with the better score.
 */
export function dropDuplicates(
  sents: readonly ScoredSentence[],
  passages: readonly Passage[],
): Passage[] {
  const kept: { p: Passage; norm: string }[] = [];
  const byScore = [...passages].sort((a, b) => b.score - a.score || a.start - b.start);
  for (const p of byScore) {
    const norm = normalize(renderPassage(sents, p));
    if (kept.some((k) => k.norm.includes(norm))) continue;
    const inside = kept.filter((k) => norm.includes(k.norm));
    const score = Math.max(p.score, ...inside.map((k) => k.p.score));
    for (const k of inside) kept.splice(kept.indexOf(k), 1);
    kept.push({ p: { ...p, score }, norm });
  }
  return kept.map((k) => k.p);
}

/**
 * The longest prefix of `text`, cut at a word boundary and ending in "…", that
 * fits in what is left of the budget; `undefined` when too little would remain.
 */
export function cutToFit(text: string, used: Cost, budget: Budget): string | undefined {
  const cut = (n: number) => {
    const space = text.lastIndexOf(" ", n);
    return text.slice(0, space > n / 2 ? space : n).trimEnd() + ELLIPSIS;
  };
  let lo = 0;
  let hi = Math.min(text.length, budget.chars - used.chars);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(used, costOf(cut(mid), budget), budget)) lo = mid;
    else hi = mid - 1;
  }
  if (lo < MIN_CUT_CHARS) return undefined;
  const out = cut(lo);
  return fits(used, costOf(out, budget), budget) ? out : undefined;
}
