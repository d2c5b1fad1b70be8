import assert from "node:assert/strict";
import {
  blockTypePrior,
  combineHeuristics,
  DEFAULT_HEURISTIC_WEIGHTS,
  headingMatch,
  headingProximity,
  type HeuristicScores,
  lengthOutlier,
  metaSection,
  positionPrior,
  queryCoverage,
  termDensity,
  termProximity,
} from "../../../src/pipeline/rank/heuristics.ts";

const Q = new Set(["bread", "oven", "temperatur"]);

Deno.test("queryCoverage() is the share of distinct query terms present", () => {
  assert.equal(queryCoverage(["bread", "bread", "flour"], Q), 1 / 3);
  assert.equal(queryCoverage(["bread", "oven", "temperatur"], Q), 1);
  assert.equal(queryCoverage(["flour"], Q), 0);
  assert.equal(queryCoverage(["bread"], new Set()), 0);
});

Deno.test("queryCoverage() weighs rare terms above the page's subject", () => {
  const weights = new Map([["lighthous", 0.2], ["step", 3]]);
  const q = new Set(["lighthous", "step"]);
  assert.ok(queryCoverage(["step"], q, weights) > 0.9);
  assert.ok(queryCoverage(["lighthous"], q, weights) < 0.1);
});

Deno.test("headingMatch() scores query terms found in the heading path", () => {
  assert.equal(headingMatch(["bake", "oven", "temperatur"], Q), 2 / 3);
  assert.equal(headingMatch([], Q), 0);
});

Deno.test("termProximity() rewards query terms standing close together", () => {
  const near = termProximity(["oven", "temperatur", "x", "y", "z", "w"], Q);
  const far = termProximity(["oven", "a", "b", "c", "d", "temperatur"], Q);
  assert.equal(near, 1);
  assert.ok(far < near && far > 0);
  assert.equal(termProximity(["oven", "a"], Q), 0, "one term has no proximity");
});

Deno.test("termProximity() finds the tightest window among repeats", () => {
  const t = ["bread", "a", "b", "c", "oven", "bread", "temperatur"];
  assert.equal(termProximity(t, Q), 1);
});

Deno.test("headingProximity() decays with distance from the heading", () => {
  assert.equal(headingProximity(0), 1);
  assert.equal(headingProximity(1), 0.5);
  assert.ok(headingProximity(10) < headingProximity(2));
});

Deno.test("blockTypePrior() prefers paragraphs to cells and code", () => {
  assert.ok(blockTypePrior("p") > blockTypePrior("li"));
  assert.ok(blockTypePrior("li") > blockTypePrior("td"));
  assert.ok(blockTypePrior("td") > blockTypePrior("pre"));
});

Deno.test("termDensity() is the share of tokens that are query terms", () => {
  assert.equal(termDensity(["bread", "flour", "oven", "salt"], Q), 0.5);
  assert.equal(termDensity([], Q), 0);
});

Deno.test("lengthOutlier() penalizes very short and very long sentences only", () => {
  assert.equal(lengthOutlier(120), 0);
  assert.ok(lengthOutlier(5) > 0.5);
  assert.ok(lengthOutlier(800) > 0);
  assert.equal(lengthOutlier(5000), 1);
});

Deno.test("metaSection() flags comments, references, related articles and cookie text", () => {
  assert.equal(metaSection(["Guide", "Comments"], "Great recipe!"), 1);
  assert.equal(metaSection(["References"], "Smith, J. (2001)."), 1);
  assert.equal(metaSection(["Related articles"], "Baking with rye"), 1);
  assert.equal(metaSection(["12 Comments"], "Nice"), 1);
  assert.equal(metaSection([], "We use cookies to improve your experience."), 1);
  assert.equal(metaSection([], "© 2024 Example Inc."), 1);
  assert.equal(metaSection(["Baking"], "Preheat the oven to 250 °C."), 0);
  assert.equal(metaSection(["Release notes"], "Version 2 adds a flag."), 0);
});

Deno.test("positionPrior() favours the top of the page", () => {
  assert.equal(positionPrior(0, 10), 1);
  assert.ok(positionPrior(9, 10) < positionPrior(1, 10));
  assert.equal(positionPrior(0, 1), 1);
});

Deno.test("combineHeuristics() adds signals and subtracts penalties by weight", () => {
  const zero: HeuristicScores = {
    bm25: 0,
    coverage: 0,
    headingMatch: 0,
    proximity: 0,
    headingProximity: 0,
    blockType: 0,
    density: 0,
    position: 0,
    outlier: 0,
    metaSection: 0,
  };
  assert.equal(combineHeuristics(zero), 0);
  assert.equal(combineHeuristics({ ...zero, bm25: 1 }), DEFAULT_HEURISTIC_WEIGHTS.bm25);
  const match = { ...zero, bm25: 1, coverage: 1 };
  const meta = combineHeuristics({ ...match, metaSection: 1 });
  assert.ok(meta < combineHeuristics(match));
  assert.ok(meta < combineHeuristics({ ...zero, bm25: 0.5, coverage: 0.5 }));
  assert.equal(
    combineHeuristics({ ...zero, outlier: 1 }, { ...DEFAULT_HEURISTIC_WEIGHTS, outlier: 2 }),
    -2,
  );
});
