import assert from "node:assert/strict";
import {
  createTokenizer,
  DEFAULT_TOKENIZE_CONFIG,
  foldText,
  stopwordSet,
  tokenize,
} from "../../src/text/tokenize.ts";

Deno.test("tokenize() lowercases, drops English stop words and stems", () => {
  assert.deepEqual(tokenize("The Cats were RUNNING to the gardens"), ["cat", "run", "garden"]);
});

Deno.test("tokenize() folds diacritics and compatibility forms", () => {
  assert.deepEqual(tokenize("Crème brûlée"), tokenize("creme brulee"));
  assert.deepEqual(tokenize("ﬁne Ｆｕｌｌ"), ["fine", "full"]);
  assert.equal(foldText("Ångström"), "angstrom");
});

Deno.test("tokenize() keeps Japanese voicing marks and Korean syllables intact", () => {
  assert.ok(tokenize("ひらがな").join("").includes("が"));
  assert.deepEqual(tokenize("서울의 날씨"), ["서울의", "날씨"]);
});

Deno.test("tokenize() splits CJK text without spaces into words", () => {
  const tokens = tokenize("東京の天気は晴れです");
  assert.ok(tokens.includes("東京"), tokens.join(" "));
  assert.ok(tokens.includes("天気"), tokens.join(" "));
  assert.ok(tokens.length >= 4);
  const zh = tokenize("我喜欢学习中文");
  assert.ok(zh.length >= 3, zh.join(" "));
});

Deno.test("tokenize() unifies apostrophes and drops possessives", () => {
  assert.deepEqual(tokenize("the cell’s membrane"), tokenize("the cell's membrane"));
  assert.deepEqual(tokenize("the cell's membrane"), ["cell", "membran"]);
});

Deno.test("tokenize() skips punctuation and keeps numbers", () => {
  assert.deepEqual(tokenize("COVID-19: 3.5% (2020)!"), ["covid", "19", "3.5", "2020"]);
  assert.deepEqual(tokenize("  ... !!! "), []);
});

Deno.test("tokenize() takes another stop-word language from the config", () => {
  const text = "der Hund und die Katze";
  assert.ok(tokenize(text).includes("der"));
  const de = tokenize(text, { stopwordLanguages: ["eng", "deu"], stem: false });
  assert.deepEqual(de, ["hund", "katze"]);
});

Deno.test("tokenize() can keep words unstemmed", () => {
  assert.deepEqual(tokenize("running cats", { stem: false }), ["running", "cats"]);
});

Deno.test("createTokenizer() gives the same terms as tokenize() when reused", () => {
  const tok = createTokenizer();
  const texts = ["Running dogs", "running dogs again", "Éléphants are running"];
  for (const t of texts) assert.deepEqual(tok(t), tokenize(t));
});

Deno.test("stopwordSet() rejects an unknown language", () => {
  // deno-lint-ignore no-explicit-any
  assert.throws(() => stopwordSet(["xxx" as any]), RangeError);
  assert.ok(stopwordSet(DEFAULT_TOKENIZE_CONFIG.stopwordLanguages).has("the"));
});
