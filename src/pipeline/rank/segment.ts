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
  /**
   * A `pre` block longer than this is cut at blank lines (else at line ends) into
   * pieces of up to `maxSentenceChars`: code stays whole, but a plain-text RFC
   * served as one 40 kB `pre` can still be ranked and quoted in parts. @default {1200}
   */
  maxPreChars: number;
}

/** Default segmentation. */
export const DEFAULT_SEGMENT_CONFIG: Readonly<SegmentConfig> = Object.freeze({
  locale: "en",
  maxSentenceChars: 600,
  maxPreChars: 1200,
});

/** Heading level assumed when a heading block carries none. */
const DEFAULT_HEADING_LEVEL = 2;
const WHITESPACE = /\s+/g;
/**
 * Reference marks ("[12]", "[a]", "[edit]", "[citation needed]"): noise outside the
 * page, and the segmenter cuts "end.[12] Next" as "end.[" + "12] Next".
 */
const REFERENCE_MARK = /\[(?:\d{1,4}|[a-z]|edit|citation needed|note \d+|nb \d+)\]/gi;
/** Opening brackets the segmenter leaves at a sentence's end; they belong to the next one. */
const TRAILING_OPENERS = /\s*[([{“‘"]+$/;
/** Paragraph breaks inside preformatted text, and what joins its pieces again. */
const BLANK_LINES = /\n[ \t]*\n+/;
export const PRE_JOIN = "\n\n";
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
  const clean = cleanText(text);
  const out: string[] = [];
  let carry = "";
  let opener = "";
  for (const seg of segmenter.segment(clean)) {
    let s = opener + seg.segment.trim();
    opener = TRAILING_OPENERS.exec(s)?.[0].trim() ?? "";
    if (opener) s = s.slice(0, s.length - opener.length).trimEnd();
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

/**
 * Preformatted text as one piece when it is at most `max` long, else cut at blank
 * lines (then line ends) into pieces of at most `piece` characters.
 */
export function splitPre(text: string, max: number, piece: number): string[] {
  const body = text.replace(PRE_EDGES, "");
  if (body.trim().length === 0) return [];
  if (body.length <= max) return [body];
  const out: string[] = [];
  let chunk = "";
  const push = (part: string, sep: string) => {
    if (chunk && chunk.length + sep.length + part.length > piece) {
      out.push(chunk);
      chunk = "";
    }
    chunk = chunk ? chunk + sep + part : part;
  };
  for (const para of body.split(BLANK_LINES)) {
    if (para.trim().length === 0) continue;
    if (para.length <= piece) push(para, PRE_JOIN);
    else for (const line of para.split("\n")) push(line, "\n");
  }
  if (chunk) out.push(chunk);
  return out;
}

/** Whitespace collapsed and reference marks removed; the text a reader wants quoted. */
export function cleanText(text: string): string {
  return text.replace(REFERENCE_MARK, "").replace(WHITESPACE, " ").trim();
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
      const text = cleanText(block.text);
      if (text) stack.push({ level, text });
      path = Object.freeze(stack.map((h) => h.text));
      section++;
      indexInSection = 0;
      return;
    }
    const texts = block.type === "pre"
      ? splitPre(block.text, cfg.maxPreChars, cfg.maxSentenceChars)
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
