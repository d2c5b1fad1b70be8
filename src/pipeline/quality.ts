/**
 * The quality gate: pages with too few real sentences, mostly fragments or
 * mostly links are dropped before ranking, with the reason.
 * @module
 */
import type { Article } from "./types.ts";

/** Thresholds of the gate. */
export interface QualityConfig {
  /** Fewest sentences of at least `minWords` words a page must have. @default {3} */
  minSentences: number;
  /** Words that make a sentence "real" rather than a fragment. @default {6} */
  minWords: number;
  /** Largest share of blocks that may be fragments (menus, captions, buttons). @default {0.8} */
  maxFragmentShare: number;
  /** Largest share of the text that may be link text. @default {0.6} */
  maxLinkShare: number;
}

/** Defaults for {@linkcode QualityConfig}. */
export const DEFAULT_QUALITY_CONFIG: Readonly<QualityConfig> = {
  minSentences: 3,
  minWords: 6,
  maxFragmentShare: 0.8,
  maxLinkShare: 0.6,
};

/** The gate's verdict, with the measures behind it. */
export interface QualityVerdict {
  ok: boolean;
  reason?: string;
  sentences: number;
  fragmentShare: number;
  linkShare: number;
}

const SENTENCE_END = /[.!?。！？…:;]["')\]]?$/u;
const WORD = /[\p{L}\p{N}]+/gu;
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

function wordCount(text: string): number {
  // Scripts without spaces: count characters in pairs as a rough word count.
  if (CJK.test(text)) return Math.ceil(text.replace(/\s/g, "").length / 2);
  return text.match(WORD)?.length ?? 0;
}

/** Judges an article; pure. */
export function judgeQuality(
  article: Article,
  config: QualityConfig = DEFAULT_QUALITY_CONFIG,
): QualityVerdict {
  const segmenter = new Intl.Segmenter(article.lang ?? "en", { granularity: "sentence" });
  let sentences = 0;
  let fragments = 0;
  const prose = article.blocks.filter((b) => b.type !== "heading" && b.type !== "pre");
  for (const block of prose) {
    let real = 0;
    for (const { segment } of segmenter.segment(block.text)) {
      const s = segment.trim();
      if (wordCount(s) >= config.minWords && (SENTENCE_END.test(s) || CJK.test(s))) real++;
    }
    sentences += real;
    if (real === 0) fragments++;
  }
  const fragmentShare = prose.length === 0 ? 1 : fragments / prose.length;
  const textLength = article.text.length || 1;
  const linkText = article.links.reduce((n, l) => n + l.text.length, 0);
  const linkShare = Math.min(1, linkText / textLength);
  const verdict = { sentences, fragmentShare, linkShare };
  if (sentences < config.minSentences) {
    return { ok: false, reason: `only ${sentences} real sentences`, ...verdict };
  }
  if (linkShare > config.maxLinkShare) {
    return {
      ok: false,
      reason: `mostly links (${Math.round(linkShare * 100)}% of the text)`,
      ...verdict,
    };
  }
  if (fragmentShare > config.maxFragmentShare) {
    return {
      ok: false,
      reason: `mostly fragments (${Math.round(fragmentShare * 100)}% of the blocks)`,
      ...verdict,
    };
  }
  return { ok: true, ...verdict };
}
