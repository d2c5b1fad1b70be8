import assert from "node:assert/strict";
import { countTokens, loadTokenizer, truncateToTokens } from "../../src/text/tokens.ts";

await loadTokenizer();

const PARAGRAPHS = [
  "The first paragraph says one thing clearly and briefly.",
  "The second paragraph adds more detail, with a few more words than the first one had.",
  "The third paragraph closes the argument.",
].join("\n\n");

Deno.test("countTokens() counts o200k tokens and zero for empty text", () => {
  assert.equal(countTokens(""), 0);
  assert.equal(countTokens("hello world"), 2);
});

Deno.test("truncateToTokens() keeps text that fits untouched", () => {
  const out = truncateToTokens(PARAGRAPHS, 1000);
  assert.deepEqual(out, { text: PARAGRAPHS, tokens: countTokens(PARAGRAPHS), truncated: false });
});

Deno.test("truncateToTokens() cuts at the last paragraph boundary that fits", () => {
  const two = PARAGRAPHS.split("\n\n").slice(0, 2).join("\n\n");
  const out = truncateToTokens(PARAGRAPHS, countTokens(two) + 2);
  assert.equal(out.text, two);
  assert.equal(out.truncated, true);
  assert.ok(out.tokens <= countTokens(two) + 2);
});

Deno.test("truncateToTokens() falls back to sentences, then tokens, inside one paragraph", () => {
  const para = "One short sentence. Another sentence that is rather longer than the first.";
  assert.equal(truncateToTokens(para, 6).text, "One short sentence.");
  const word = "Supercalifragilisticexpialidocious antidisestablishmentarianism";
  const out = truncateToTokens(word, 3);
  assert.ok(out.tokens <= 3 && out.text.length > 0 && word.startsWith(out.text));
});

Deno.test("truncateToTokens() never leaves a broken character", () => {
  const out = truncateToTokens("漢字かな交じり文の例です。".repeat(20), 5);
  assert.ok(!out.text.includes("\uFFFD"));
  assert.ok(out.tokens <= 5);
});

Deno.test("countTokens() and truncateToTokens() read special-token spellings as plain text", () => {
  const text = "Models end with <|endoftext|> as a marker.\n\nSecond paragraph.";
  assert.ok(countTokens(text) > 5);
  const cut = truncateToTokens(text, 12);
  assert.ok(cut.tokens <= 12);
  assert.equal(cut.truncated, true);
});
