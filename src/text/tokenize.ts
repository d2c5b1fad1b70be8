/**
 * Words → index terms: `Intl.Segmenter` word boundaries (dictionary-based for
 * CJK and Thai), lowercase, diacritics folded, stop words removed, Porter
 * stems. The same function feeds BM25 over SciFact, sentence ranking and the
 * session keys, so query and document terms always agree.
 * @module
 */
import { stemmer } from "stemmer";
// Deferred: evaluated when a stop-word list is first read, not when a command starts.
import defer * as stopwords from "stopword";

/** Stop-word list codes of the `stopword` package (ISO 639-3), e.g. `eng`, `deu`, `fra`. */
export type StopwordLanguage = Exclude<
  Extract<keyof typeof stopwords, string>,
  "removeStopwords" | "default" | "module.exports" | "__esModule" | "_123"
>;

/** How text becomes terms. */
export interface TokenizeConfig {
  /** Stop-word lists to drop, by `stopword` code. @default {["eng"]} */
  stopwordLanguages: readonly StopwordLanguage[];
  /** More stop words, on top of the lists. @default {ENGLISH_QUESTION_WORDS} */
  extraStopwords: readonly string[];
  /** Apply the Porter stemmer (English; other scripts pass through unchanged). @default {true} */
  stem: boolean;
  /** Fold accents (é → e) and compatibility forms (ﬁ → fi, full-width → ASCII). @default {true} */
  foldDiacritics: boolean;
  /** Words shorter than this (in UTF-16 units) are dropped; CJK words are kept at any length. @default {1} */
  minLength: number;
  /** Locale given to `Intl.Segmenter`; word breaks barely depend on it. @default {"en"} */
  locale: string;
}

/**
 * Question and auxiliary words missing from `stopword`'s short English list. Queries
 * are often questions ("when was … founded"): left in, "when" matches every
 * sentence that starts "When …" and outranks the answer.
 */
export const ENGLISH_QUESTION_WORDS: readonly string[] = Object.freeze([
  "when",
  "why",
  "whom",
  "whose",
  "whether",
  "does",
  "doing",
  "done",
  "its",
  "it's",
  "will",
  "shall",
  "may",
]);

/** Defaults used everywhere unless a caller needs another language set. */
export const DEFAULT_TOKENIZE_CONFIG: Readonly<TokenizeConfig> = Object.freeze({
  stopwordLanguages: Object.freeze(["eng"] as StopwordLanguage[]),
  extraStopwords: ENGLISH_QUESTION_WORDS,
  stem: true,
  foldDiacritics: true,
  minLength: 1,
  locale: "en",
});

/** Text that needs no Unicode normalization: ASCII only. */
const ASCII_ONLY = /^[^\u0080-\uffff]*$/;
/** Combining diacritical marks left after NFKD. Only this block is stripped, so Japanese
 * voicing marks (U+3099) and Indic vowel signs survive: removing those changes the word. */
const COMBINING_DIACRITICS = /[\u0300-\u036f]/g;
/** Typographic apostrophes, unified so "it’s" and "it's" give one term. */
const APOSTROPHES = /[\u2019\u02bc\uff07]/g;
/** English possessive, dropped before stemming ("cell's" → "cell"). */
const POSSESSIVE = /'s$/;
/** Leading/trailing apostrophes left by quoting ('word'). */
const EDGE_APOSTROPHES = /^'+|'+$/g;
/** Characters from scripts written without spaces, which the stemmer must not touch. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

/** Folds case, accents and compatibility forms of a whole text at once. */
export function foldText(text: string, foldDiacritics = true): string {
  const lower = text.toLowerCase();
  if (!foldDiacritics || ASCII_ONLY.test(lower)) return lower;
  return lower.normalize("NFKD").replace(COMBINING_DIACRITICS, "").normalize("NFC");
}

/** A tokenizer with its own stop-word set, segmenter and stem memo (no shared state). */
export type Tokenizer = (text: string) => string[];

/**
 * Builds a tokenizer for one config. Reuse it for many texts: it keeps a memo of
 * stems, which makes indexing a corpus several times faster than calling
 * {@linkcode tokenize} for each document.
 *
 * @example
 * ```ts
 * const tok = createTokenizer();
 * tok("The cats were running"); // ["cat", "run"]
 * ```
 */
export function createTokenizer(config: Partial<TokenizeConfig> = {}, memoize = true): Tokenizer {
  const cfg: TokenizeConfig = { ...DEFAULT_TOKENIZE_CONFIG, ...config };
  const stop = stopwordSet(cfg.stopwordLanguages, cfg.extraStopwords);
  const segmenter = new Intl.Segmenter(cfg.locale, { granularity: "word" });
  // The memo lives and dies with this tokenizer; the default one below runs without it.
  const memo = memoize ? new Map<string, string | null>() : undefined;
  const term = (word: string): string | null => {
    let w = word.replace(APOSTROPHES, "'");
    if (stop.has(w)) return null;
    w = w.replace(POSSESSIVE, "").replace(EDGE_APOSTROPHES, "");
    if (w.length === 0 || stop.has(w)) return null;
    const cjk = CJK.test(w);
    if (!cjk && w.length < cfg.minLength) return null;
    return cfg.stem && !cjk ? stemmer(w) : w;
  };
  return (text: string): string[] => {
    const out: string[] = [];
    for (const seg of segmenter.segment(foldText(text, cfg.foldDiacritics))) {
      if (!seg.isWordLike) continue;
      const word = seg.segment;
      let t = memo?.get(word);
      if (t === undefined) {
        t = term(word);
        memo?.set(word, t);
      }
      if (t !== null) out.push(t);
    }
    return out;
  };
}

/** The union of the configured stop-word lists, folded like the text they are matched against. */
export function stopwordSet(
  languages: readonly StopwordLanguage[],
  extra: readonly string[] = [],
): Set<string> {
  const set = new Set<string>();
  for (const lang of languages) {
    const list = stopwords[lang] as readonly string[] | undefined;
    if (!list) throw new RangeError(`Cannot use stop words "${lang}": no such list`);
    for (const w of list) set.add(foldText(w).replace(APOSTROPHES, "'"));
  }
  for (const w of extra) set.add(foldText(w).replace(APOSTROPHES, "'"));
  return set;
}

/**
 * Stateless default tokenizer (no memo), built once because building the stop
 * set costs (~50 ms) — on first use, not at import, so a command that never
 * tokenizes never pays for it. Set once, never changed after.
 */
let defaultTokenizer: Tokenizer | undefined;

/**
 * Splits text into index terms with the default config (or the one given).
 * For many texts, build one {@linkcode createTokenizer} and reuse it.
 *
 * @example
 * ```ts
 * tokenize("Crème brûlée recipes"); // ["creme", "brule", "recip"]
 * tokenize("東京の天気"); // ["東京", "の", "天気"]
 * ```
 */
export function tokenize(text: string, config?: Partial<TokenizeConfig>): string[] {
  if (config !== undefined) return createTokenizer(config)(text);
  defaultTokenizer ??= createTokenizer(DEFAULT_TOKENIZE_CONFIG, false);
  return defaultTokenizer(text);
}
