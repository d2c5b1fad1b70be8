/**
 * The parts of a page that answer a query, within a budget: sentences scored
 * (BM25 + heuristics) → anchors chosen with diversity → context grown within
 * section bounds → overlaps merged, duplicates dropped → passages taken best
 * first while they fit → optionally widened to use what is left.
 * @module
 */
import type { Block } from "../types.ts";
import { type Bm25Config, DEFAULT_BM25_CONFIG } from "./bm25.ts";
import { DEFAULT_HEURISTIC_WEIGHTS, type HeuristicWeights } from "./heuristics.ts";
import {
  type Budget,
  type Cost,
  costOf,
  cutToFit,
  dropDuplicates,
  expand,
  fits,
  mergePassages,
  type Passage,
  renderPassage,
} from "./passages.ts";
import { type ScoredSentence, scoreSentences } from "./score.ts";
import { DEFAULT_SEGMENT_CONFIG, segmentBlocks, type SegmentConfig } from "./segment.ts";
import {
  createTokenizer,
  DEFAULT_TOKENIZE_CONFIG,
  type TokenizeConfig,
} from "../../text/tokenize.ts";
import type { CountTokens } from "./tokens.ts";

/** One excerpt of a page. */
export interface Excerpt {
  text: string;
  /** Headings above the excerpt, outermost first. */
  heading: string[];
  /** Best sentence score in the excerpt (BM25 share + heuristics), rounded to 3 places. */
  score: number;
  /** Page the excerpt starts on, for paged documents (PDF). */
  page?: number;
}

/**
 * `strict`: one page is the whole answer (`fetch --query`), so more anchors and
 * wider context, and leftover budget is spent widening passages. `search`: one
 * page among many, so only passages close to the page's best are kept and
 * unused budget is left for the other pages.
 */
export type ExcerptMode = "strict" | "search";

/** Settings that differ between the modes. */
export interface ExcerptModeSettings {
  /** Most anchor sentences chosen. */
  maxAnchors: number;
  /** Sentences of context before / after an anchor (within its section). */
  contextBefore: number;
  contextAfter: number;
  /** Passages scoring below this share of the page's best are dropped. */
  minScoreRatio: number;
  /** Spend leftover budget widening the chosen passages. */
  fill: boolean;
}

/** Mode presets; explicit options override them. */
export const EXCERPT_MODES: Readonly<Record<ExcerptMode, Readonly<ExcerptModeSettings>>> = Object
  .freeze({
    strict: { maxAnchors: 12, contextBefore: 1, contextAfter: 1, minScoreRatio: 0, fill: true },
    search: { maxAnchors: 5, contextBefore: 1, contextAfter: 1, minScoreRatio: 0.4, fill: false },
  });

/** Everything that shapes excerpts. */
export interface ExcerptConfig extends ExcerptModeSettings {
  mode: ExcerptMode;
  /** The page's title, read as the context of every sentence. @default {""} */
  title: string;
  /** Characters of excerpt text for the page (headings not counted). @default {3000} */
  budgetChars: number;
  /** Also stop at this many tokens, counted with `count` (e.g. {@linkcode countTokens}). */
  tokenBudget: { max: number; count: CountTokens } | undefined;
  /**
   * `document` (default): excerpts in page order, because they then read as the
   * author's argument and headings appear in sequence; scores still say which is
   * best. `score`: best first, for callers that cut the list further.
   */
  order: "document" | "score";
  /** Score taken from an anchor candidate for each anchor already in its block / section. */
  blockDiversity: number;
  sectionDiversity: number;
  weights: HeuristicWeights;
  bm25: Bm25Config;
  tokenize: TokenizeConfig;
  segment: SegmentConfig;
}

/** Defaults: search mode, 3000 characters (DESIGN §3 `--budget`). */
export const DEFAULT_EXCERPT_CONFIG: Readonly<ExcerptConfig> = Object.freeze({
  mode: "search",
  ...EXCERPT_MODES.search,
  title: "",
  budgetChars: 3000,
  tokenBudget: undefined,
  order: "document",
  blockDiversity: 0.5,
  sectionDiversity: 0.15,
  weights: DEFAULT_HEURISTIC_WEIGHTS,
  bm25: DEFAULT_BM25_CONFIG,
  tokenize: DEFAULT_TOKENIZE_CONFIG,
  segment: DEFAULT_SEGMENT_CONFIG,
});

/**
 * Options of {@linkcode rankExcerpts}: any part of the config; `mode` picks its
 * preset. An `undefined` field means "the default", so callers can pass their own
 * optional values straight through.
 */
export type RankExcerptsOptions = { [K in keyof ExcerptConfig]?: ExcerptConfig[K] | undefined };

/** Resolves options: defaults, then the mode's preset, then what the caller set. */
export function resolveExcerptConfig(options: RankExcerptsOptions = {}): ExcerptConfig {
  const mode = options.mode ?? DEFAULT_EXCERPT_CONFIG.mode;
  const set = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return { ...DEFAULT_EXCERPT_CONFIG, ...EXCERPT_MODES[mode], ...set, mode } as ExcerptConfig;
}

/** Anchors: best sentences first, each paying for anchors already in its block and section. */
function chooseAnchors(sents: readonly ScoredSentence[], cfg: ExcerptConfig): number[] {
  const pool = sents.filter((s) => s.matches && !s.meta);
  const perBlock = new Map<number, number>();
  const perSection = new Map<number, number>();
  const texts = new Set<string>();
  const chosen: number[] = [];
  while (chosen.length < cfg.maxAnchors && pool.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    pool.forEach((s, i) => {
      const v = s.score - cfg.blockDiversity * (perBlock.get(s.blockIndex) ?? 0) -
        cfg.sectionDiversity * (perSection.get(s.section) ?? 0);
      if (v > bestValue) [best, bestValue] = [i, v];
    });
    const s = pool.splice(best, 1)[0]!;
    if (texts.has(s.text)) continue;
    texts.add(s.text);
    chosen.push(s.position);
    perBlock.set(s.blockIndex, (perBlock.get(s.blockIndex) ?? 0) + 1);
    perSection.set(s.section, (perSection.get(s.section) ?? 0) + 1);
  }
  return chosen;
}

/**
 * Takes passages best first while they fit. One that does not fit (several
 * anchors merged, or long context) falls back to its best anchor with its
 * context, then that anchor alone, then the anchor cut to what is left.
 */
function assemble(
  sents: readonly ScoredSentence[],
  passages: readonly Passage[],
  anchors: readonly number[],
  budget: Budget,
  cfg: ExcerptConfig,
): { taken: Passage[]; used: Cost } {
  const taken: Passage[] = [];
  const used: Cost = { chars: 0, tokens: 0 };
  for (const p of [...passages].sort((a, b) => b.score - a.score || a.start - b.start)) {
    const inside = anchors.filter((a) => a >= p.start && a <= p.end);
    const best = inside.reduce((x, y) => (sents[y]!.score > sents[x]!.score ? y : x), inside[0]!);
    const around = expand(sents, best, cfg.contextBefore, cfg.contextAfter);
    const fallbacks: Passage[] = [
      p,
      { ...around, start: Math.max(around.start, p.start), end: Math.min(around.end, p.end) },
      { ...p, start: best, end: best },
    ];
    let done = false;
    for (const q of fallbacks) {
      const cost = costOf(renderPassage(sents, q), budget);
      if (!fits(used, cost, budget)) continue;
      taken.push({ ...q, score: p.score });
      used.chars += cost.chars;
      used.tokens += cost.tokens;
      done = true;
      break;
    }
    if (done) continue;
    const cut = cutToFit(sents[best]!.text, used, budget);
    if (cut === undefined) continue;
    const cost = costOf(cut, budget);
    taken.push({ start: best, end: best, score: p.score, cut });
    used.chars += cost.chars;
    used.tokens += cost.tokens;
  }
  return { taken, used };
}

/** Grows passages one sentence at a time (after first, then before) while the budget allows. */
function widen(
  sents: readonly ScoredSentence[],
  taken: readonly Passage[],
  used: Cost,
  budget: Budget,
): Passage[] {
  const costs = new Map<Passage, Cost>(
    taken.map((p) => [p, costOf(renderPassage(sents, p), budget)]),
  );
  const grow = (p: Passage): boolean => {
    const section = sents[p.start]!.section;
    const options = [{ ...p, end: p.end + 1 }, { ...p, start: p.start - 1 }].filter((q) =>
      q.start >= 0 && q.end < sents.length && sents[q.start]!.section === section &&
      sents[q.end]!.section === section && !sents[q.start]!.meta && !sents[q.end]!.meta
    );
    for (const q of options) {
      // A passage that grows into its neighbour absorbs it.
      const touched = [...costs.keys()].filter((o) =>
        o !== p && o.cut === undefined && sents[o.start]!.section === section &&
        o.start <= q.end + 1 && q.start <= o.end + 1
      );
      const next: Passage = {
        start: Math.min(q.start, ...touched.map((o) => o.start)),
        end: Math.max(q.end, ...touched.map((o) => o.end)),
        score: Math.max(q.score, ...touched.map((o) => o.score)),
      };
      const cost = costOf(renderPassage(sents, next), budget);
      let freed = costs.get(p)!;
      for (const o of touched) {
        const c = costs.get(o)!;
        freed = { chars: freed.chars + c.chars, tokens: freed.tokens + c.tokens };
      }
      const base = { chars: used.chars - freed.chars, tokens: used.tokens - freed.tokens };
      if (!fits(base, cost, budget)) continue;
      for (const o of [p, ...touched]) costs.delete(o);
      costs.set(next, cost);
      used.chars = base.chars + cost.chars;
      used.tokens = base.tokens + cost.tokens;
      return true;
    }
    return false;
  };
  for (let grew = true; grew;) {
    grew = false;
    const order = [...costs.keys()].sort((a, b) => b.score - a.score || a.start - b.start);
    for (const p of order) {
      if (p.cut === undefined && costs.has(p) && grow(p)) grew = true;
    }
  }
  return [...costs.keys()];
}

/**
 * Ranks a page's content against a query and returns the best excerpts within
 * the budget. With no sentence matching the query (or an empty query), returns
 * the page's opening, so a page is never reported as empty when it is not.
 *
 * @example
 * ```ts
 * const excerpts = rankExcerpts(article.blocks, "rust borrow checker", {
 *   mode: "search",
 *   budgetChars: 1000,
 * });
 * // [{ text: "The borrow checker …", heading: ["Ownership"], score: 2.41 }]
 * ```
 */
export function rankExcerpts(
  blocks: readonly Block[],
  query: string,
  options: RankExcerptsOptions = {},
): Excerpt[] {
  const cfg = resolveExcerptConfig(options);
  const budget: Budget = { chars: cfg.budgetChars };
  if (cfg.tokenBudget) budget.tokens = cfg.tokenBudget;
  const sents = scoreSentences(segmentBlocks(blocks, cfg.segment), query, {
    tokenizer: createTokenizer(cfg.tokenize),
    weights: cfg.weights,
    bm25: cfg.bm25,
    title: cfg.title,
  });
  if (sents.length === 0 || budget.chars <= 0) return [];
  let anchors = chooseAnchors(sents, cfg);
  const lead = anchors.length === 0;
  if (lead) anchors = [sents.find((s) => !s.meta)?.position ?? 0];
  let passages = anchors.map((a) => expand(sents, a, cfg.contextBefore, cfg.contextAfter));
  passages = dropDuplicates(sents, mergePassages(sents, passages));
  const best = Math.max(...passages.map((p) => p.score));
  if (cfg.minScoreRatio > 0 && best > 0) {
    passages = passages.filter((p) => p.score >= cfg.minScoreRatio * best);
  }
  const assembled = assemble(sents, passages, anchors, budget, cfg);
  const chosen = cfg.fill || lead
    ? widen(sents, assembled.taken, assembled.used, budget)
    : assembled.taken;
  const ordered = cfg.order === "document"
    ? [...chosen].sort((a, b) => a.start - b.start)
    : [...chosen].sort((a, b) => b.score - a.score || a.start - b.start);
  return ordered.map((p) => {
    const page = blocks[sents[p.start]!.blockIndex]?.page;
    return {
      text: renderPassage(sents, p),
      heading: [...sents[p.start]!.headingPath],
      score: Math.round(p.score * 1000) / 1000,
      ...(page === undefined ? {} : { page }),
    };
  });
}
