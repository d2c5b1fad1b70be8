import assert from "node:assert/strict";
import {
  compareRelevance,
  pageRelevance,
  sortByRelevance,
  urlWords,
} from "../../../src/pipeline/rank/relevance.ts";

const URL = "https://example.com/guides/sourdough-starter";
const BASE = {
  query: "sourdough starter feeding",
  url: URL,
  title: "Feeding a sourdough starter",
  bestExcerptScore: 2,
  engineRank: 1,
};

Deno.test("pageRelevance() stays within 0..1", () => {
  const hi = pageRelevance({ ...BASE, bestExcerptScore: 1e9 });
  const lo = pageRelevance({
    query: "x",
    url: "https://a.test/",
    title: "",
    bestExcerptScore: -5,
    engineRank: 1000,
  });
  assert.ok(hi <= 1 && hi > 0.8, String(hi));
  assert.ok(lo >= 0 && lo < 0.1, String(lo));
});

Deno.test("pageRelevance() rises with the title's match of the query", () => {
  const off = pageRelevance({ ...BASE, title: "Our company history" });
  assert.ok(pageRelevance(BASE) > off);
});

Deno.test("pageRelevance() rises with the best excerpt score", () => {
  assert.ok(
    pageRelevance({ ...BASE, bestExcerptScore: 3 }) >
      pageRelevance({ ...BASE, bestExcerptScore: 0.5 }),
  );
});

Deno.test("pageRelevance() prefers a better engine rank", () => {
  const at = (engineRank: number) => pageRelevance({ ...BASE, engineRank });
  assert.ok(at(1) > at(9));
});

Deno.test("pageRelevance() counts the engine's title with the page's", () => {
  const t = { ...BASE, title: "Home" };
  const withEngineTitle = { ...t, engineTitle: "Sourdough starter" };
  assert.ok(pageRelevance(withEngineTitle) > pageRelevance(t));
});

Deno.test("pageRelevance() reads words from the URL", () => {
  const plain = { ...BASE, title: "Guide", url: "https://example.com/p/123" };
  assert.ok(pageRelevance({ ...plain, url: URL }) > pageRelevance(plain));
  assert.equal(urlWords("https://ex.com/caf%C3%A9-menu?id=1").trim(), "ex com caf\u00e9 menu");
  assert.equal(urlWords("not a url").trim(), "not a url");
});

Deno.test("pageRelevance() gives an absent part's weight to the others", () => {
  const noRank = pageRelevance({ ...BASE, engineRank: undefined });
  assert.ok(noRank > 0.5, "a page fetched by URL is not punished for having no rank");
  const noExcerpt = pageRelevance({ ...BASE, bestExcerptScore: undefined });
  assert.ok(noExcerpt > 0.5);
});

Deno.test("sortByRelevance() sorts by relevance, then by URL, deterministically", () => {
  const items = [
    { url: "https://b.test/", relevance: 0.5 },
    { url: "https://c.test/" },
    { url: "https://a.test/", relevance: 0.5 },
    { url: "https://d.test/", relevance: 0.9 },
  ];
  const sorted = sortByRelevance(items).map((i) => i.url);
  assert.deepEqual(sorted, [
    "https://d.test/",
    "https://a.test/",
    "https://b.test/",
    "https://c.test/",
  ]);
  assert.deepEqual(sortByRelevance([...items].reverse()).map((i) => i.url), sorted);
  assert.equal(compareRelevance(items[0]!, items[0]!), 0);
});
