/**
 * Token budgets for excerpts. The count itself is the pipeline's one
 * `gpt-tokenizer` counter (src/text/tokens.ts, o200k_base), re-exported so
 * ranking code and its callers import budget helpers from one place.
 * @module
 */
export { countTokens } from "../../text/tokens.ts";

/** Counts the tokens of a text; the excerpt assembler's budget meter. */
export type CountTokens = (text: string) => number;
