/**
 * Article blocks → sentences, each knowing where it stands: the headings above
 * it, its block and section, its position. Excerpts are built from these, and
 * the section bounds keep context expansion from running into the next topic.
 * @module
 */
import type { Block } from "../types.ts";

/** One sentence of an article (or one whole `pre` block). */
export interface Sentence {
  text: string;
  /** Headings above the sentence, outermost first (shared by the section's sentences). */
  headingPath: readonly string[];
  /** Index of the block the sentence came from. */
  blockIndex: number;
  blockType: Block["type"];
  /** Index among all sentences of the article. */
  position: number;
  /** Index of the section: 0 before the first heading, then one more after each heading. */
  section: number;
  /** Index among the sentences of its section. */
  indexInSection: number;
  /** Index among the sentences of its block. */
  indexInBlock: number;
}

/** How blocks are cut into sentences. */
export interface SegmentConfig {
  /** Locale of `Intl.Segmenter`. @default {"en"} */
  locale: string;
  /**
   * A sentence longer than this many characters (a table cell or a run-on line
   * without punctuation) is cut at word boundaries, so one sentence never eats a
   * whole excerpt budget. `pre` blocks are never cut. @default {600}
   */
  maxSentenceChars: number;
}

/** Default segmentation. */
export const DEFAULT_SEGMENT_CONFIG: Readonly<SegmentConfig> = Object.freeze({
  locale: "en",
  maxSentenceChars: 600,
});

/** Heading level assumed when a heading block carries none. */
const DEFAULT_HEADING_LEVEL = 2;
const WHITESPACE = /\s+/g;
/** Blank lines around code; indentation of the first line is kept. */
const PRE_EDGES = /^\n+|\s+$/g;
/**
 * A sentence break the segmenter makes after a common abbreviation ("e.g.", "Fig.",
 * "Dr.", "et al.") or a single initial ("J. Smith"), which should be undone.
 */
const ABBREVIATION_END =
  /(?:^|[\s(])(?:e\.g|i\.e|vs|cf|al|approx|fig|figs|eq|vol|pp|ca|dr|mr|mrs|ms|prof|st|jr|sr)\.$/i;
/** A single capital initial ("J. R. R. Tolkien"): case matters, "plan a." ends a sentence. */
const INITIAL_END = /(?:^|\s)[A-Z]\.$/;

/** Splits one block's text into sentences with `Intl.Segmenter`. */
export function splitSentences(
  text: string,
  config: Partial<SegmentConfig> = {},
): string[] {
  const cfg = { ...DEFAULT_SEGMENT_CONFIG, ...config };
  return split(text, new Intl.Segmenter(cfg.locale, { granularity: "sentence" }), cfg);
}

function split(text: string, segmenter: Intl.Segmenter, cfg: SegmentConfig): string[] {
  const clean = text.replace(WHITESPACE, " ").trim();
  const out: string[] = [];
  let carry = "";
  for (const seg of segmenter.segment(clean)) {
    const s = seg.segment.trim();
    if (s.length === 0) continue;
    const joined = carry ? `${carry} ${s}` : s;
    if (ABBREVIATION_END.test(joined) || INITIAL_END.test(joined)) {
      carry = joined;
      continue;
    }
    carry = "";
    out.push(...cutLong(joined, cfg.maxSentenceChars));
  }
  if (carry) out.push(...cutLong(carry, cfg.maxSentenceChars));
  return out;
}

/** Cuts text longer than `max` into pieces at the last space before each limit. */
function cutLong(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const space = rest.lastIndexOf(" ", max);
    const at = space > max / 2 ? space : max;
    out.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/**
 * Turns article blocks into sentences with their heading paths. Headings are not
 * sentences themselves: they become the path of what follows them, popped when a
 * heading of the same or a higher level starts. `pre` blocks stay whole (code).
 *
 * @example
 * ```ts
 * segmentBlocks([
 *   { type: "heading", level: 2, text: "Install" },
 *   { type: "p", text: "Run the script. Then restart." },
 * ]); // two sentences, each with headingPath ["Install"]
 * ```
 */
export function segmentBlocks(
  blocks: readonly Block[],
  config: Partial<SegmentConfig> = {},
): Sentence[] {
  const cfg = { ...DEFAULT_SEGMENT_CONFIG, ...config };
  const segmenter = new Intl.Segmenter(cfg.locale, { granularity: "sentence" });
  const stack: { level: number; text: string }[] = [];
  let path: readonly string[] = [];
  let section = 0;
  let indexInSection = 0;
  const out: Sentence[] = [];
  blocks.forEach((block, blockIndex) => {
    if (block.type === "heading") {
      const level = block.level ?? DEFAULT_HEADING_LEVEL;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      const text = block.text.replace(WHITESPACE, " ").trim();
      if (text) stack.push({ level, text });
      path = Object.freeze(stack.map((h) => h.text));
      section++;
      indexInSection = 0;
      return;
    }
    const texts = block.type === "pre"
      ? (block.text.trim() ? [block.text.replace(PRE_EDGES, "")] : [])
      : split(block.text, segmenter, cfg);
    texts.forEach((text, indexInBlock) => {
      out.push({
        text,
        headingPath: path,
        blockIndex,
        blockType: block.type,
        position: out.length,
        section,
        indexInSection: indexInSection++,
        indexInBlock,
      });
    });
  });
  return out;
}
