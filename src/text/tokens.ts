/**
 * Exact token counts (the `o200k_base` encoding of `gpt-tokenizer`, which
 * current models use) and cutting text to a token budget at a natural
 * boundary: a paragraph, else a sentence, else a token.
 * @module
 */
type Gpt = typeof import("gpt-tokenizer");

/**
 * The encoding is 2.4 MB of tables that take ~0.3 s and ~40 MiB to load, so
 * it is imported by {@linkcode loadTokenizer}, when an operation that counts
 * tokens starts, never at start-up. Set once, never changed after.
 */
let gpt: Gpt | undefined;

/** Loads the tokenizer; operations that count tokens await it before counting. */
export async function loadTokenizer(): Promise<void> {
  gpt ??= await import("gpt-tokenizer");
}

function encoding(): Gpt {
  if (!gpt) throw new Error("Cannot count tokens: loadTokenizer() was not awaited first");
  return gpt;
}

const PARAGRAPH_BREAK = /\n\s*\n/;
/** Built on the first cut to sentences (~20 ms), not at import; set once. */
let sentenceSegmenter: Intl.Segmenter | undefined;
const BROKEN_TAIL = /\uFFFD+$/;
/**
 * Page text may contain special-token spellings such as `<|endoftext|>`
 * (pages about language models do); count them as plain text, never throw.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Number of tokens in a text.
 *
 * @example
 * ```ts
 * countTokens("hello world"); // 2
 * ```
 */
export function countTokens(text: string): number {
  return text === "" ? 0 : encoding().encode(text, PLAIN_TEXT).length;
}

/** A text cut to a budget. */
export interface Truncated {
  text: string;
  tokens: number;
  /** Whether anything was cut. */
  truncated: boolean;
}

/**
 * The longest prefix of `parts` joined with `separator` that fits in
 * `maxTokens`, found by binary search: a prefix never has fewer tokens than
 * a shorter one, and counting a long report once per part would be slow.
 */
function longestFittingPrefix(parts: string[], separator: string, maxTokens: number): number {
  let lo = 0;
  let hi = parts.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(parts.slice(0, mid).join(separator)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Cuts text to at most `maxTokens` at a token boundary, dropping a broken last character. */
function cutAtToken(text: string, maxTokens: number): string {
  const tokens = encoding().encode(text, PLAIN_TEXT);
  // Re-encoding a decoded prefix can merge differently; shorten until it fits.
  for (let n = maxTokens; n > 0; n--) {
    // A token may end inside a multi-byte character; decoding then leaves U+FFFD.
    const out = encoding().decode(tokens.slice(0, n)).replace(BROKEN_TAIL, "").trimEnd();
    if (countTokens(out) <= maxTokens) return out;
  }
  return "";
}

/**
 * Cuts `text` to at most `maxTokens`, at the last paragraph break that fits;
 * when even the first paragraph is too long, at its last sentence that fits;
 * failing that at a token boundary.
 *
 * @example
 * ```ts
 * truncateToTokens("One.\n\nTwo.", 2).text; // "One."
 * ```
 */
export function truncateToTokens(text: string, maxTokens: number): Truncated {
  const whole = countTokens(text);
  if (whole <= maxTokens) return { text, tokens: whole, truncated: false };
  if (maxTokens <= 0) return { text: "", tokens: 0, truncated: true };
  const paragraphs = text.split(PARAGRAPH_BREAK);
  const kept = longestFittingPrefix(paragraphs, "\n\n", maxTokens);
  let out: string;
  if (kept > 0) {
    out = paragraphs.slice(0, kept).join("\n\n").trimEnd();
  } else {
    sentenceSegmenter ??= new Intl.Segmenter("en", { granularity: "sentence" });
    const sentences = [...sentenceSegmenter.segment(paragraphs[0] ?? "")].map((s) => s.segment);
    const n = longestFittingPrefix(sentences, "", maxTokens);
    out = n > 0 ? sentences.slice(0, n).join("").trimEnd() : cutAtToken(text, maxTokens);
  }
  return { text: out, tokens: countTokens(out), truncated: true };
}
