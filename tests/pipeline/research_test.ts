import assert from "node:assert/strict";
import type { PageRead } from "../../src/pipeline/read.ts";
import {
  fitToTotal,
  research,
  type ResearchDeps,
  type ResearchResult,
} from "../../src/pipeline/research.ts";
import type { Article, Candidate } from "../../src/pipeline/types.ts";

const PROSE = "Tides rise and fall twice a day because the Moon pulls on the oceans of the Earth.";

function article(title: string, paragraphs = 4): Article {
  const blocks = Array.from({ length: paragraphs }, (_, i) => ({
    type: "p" as const,
    text: `${PROSE} Paragraph ${i} adds one more detail about the tides.`,
  }));
  return {
    title,
    byline: null,
    site: null,
    lang: "en",
    published: null,
    excerpt: null,
    text: blocks.map((b) => b.text).join("\n\n"),
    markdown: "",
    blocks,
    links: [],
  };
}

function candidate(path: string, rank: number): Candidate {
  return {
    url: `https://tides.test/${path}`,
    title: `Why tides rise and fall ${path}`,
    snippet: "The Moon pulls on the oceans.",
    engine: "fake",
    rank,
  };
}

function page(url: string, status: PageRead["status"], a?: Article): PageRead {
  return {
    fetch: { url, finalUrl: url, status, redirects: [], elapsedMs: 1 },
    status,
    ...(a
      ? { extracted: { status: "ok" as const, extractor: "readability" as const, article: a } }
      : {}),
    ...(status === "ok" ? {} : { reason: `${status} happened` }),
  };
}

function deps(candidates: Candidate[], pages: Record<string, PageRead>): ResearchDeps {
  return {
    search: () => Promise.resolve({ candidates, engine: "fake", attempts: [] }),
    read: (urls) => Promise.resolve(urls.map((u) => pages[u]!)),
    excerpts: (a) => [{ text: a.blocks[0]!.text, heading: [], score: a.title.length / 10 }],
    relevance: (_c, _a, best) => best / 10,
    countTokens: (text) => text.split(" ").length,
    now: () => 0,
  };
}

Deno.test("research() returns ok pages by relevance, then failed pages with their status", async () => {
  const cs = [candidate("a", 1), candidate("bb", 2), candidate("c", 3)];
  const pages = {
    [cs[0]!.url]: page(cs[0]!.url, "ok", article("A")),
    [cs[1]!.url]: page(cs[1]!.url, "ok", article("Longer title B")),
    [cs[2]!.url]: page(cs[2]!.url, "timeout"),
  };
  const out = await research("why do tides rise", {
    count: 5,
    budget: { perPage: 3000, total: 12000 },
  }, deps(cs, pages));
  assert.deepEqual(out.results.map((r) => [r.url, r.status]), [
    [cs[1]!.url, "ok"],
    [cs[0]!.url, "ok"],
    [cs[2]!.url, "timeout"],
  ]);
  assert.equal(out.results[2]!.reason, "timeout happened");
  assert.equal(out.totalAvailable, 3);
});

Deno.test("research() drops thin pages with the quality gate and reports pages beyond --count", async () => {
  const cs = [candidate("a", 1), candidate("b", 2), candidate("thin", 3)];
  const pages = {
    [cs[0]!.url]: page(cs[0]!.url, "ok", article("A")),
    [cs[1]!.url]: page(cs[1]!.url, "ok", article("B")),
    [cs[2]!.url]: page(cs[2]!.url, "ok", article("Thin", 1)),
  };
  const out = await research("why do tides rise", {
    count: 1,
    budget: { perPage: 3000, total: 12000 },
  }, deps(cs, pages));
  assert.equal(out.results.filter((r) => r.status === "ok").length, 1);
  assert.equal(out.results.find((r) => r.url === cs[2]!.url)?.status, "filtered");
  assert.ok(out.dropped.some((d) => d.reason === "beyond --count"));
});

Deno.test("research() skips pages the session has seen and marks the ones it returns", async () => {
  const cs = [candidate("a", 1), candidate("b", 2)];
  const pages = {
    [cs[0]!.url]: page(cs[0]!.url, "ok", article("A")),
    [cs[1]!.url]: page(cs[1]!.url, "ok", article("B")),
  };
  let marked: string[] = [];
  const out = await research("why do tides rise", {
    count: 5,
    budget: { perPage: 3000, total: 12000 },
  }, {
    ...deps(cs, pages),
    seen: () => Promise.resolve(new Set([cs[0]!.url])),
    markSeen: (urls) => {
      marked = urls;
      return Promise.resolve();
    },
  });
  assert.deepEqual(out.results.map((r) => r.url), [cs[1]!.url]);
  assert.equal(out.dropped.find((d) => d.url === cs[0]!.url)?.status, "duplicate");
  assert.deepEqual(marked, [cs[1]!.url]);
});

Deno.test("fitToTotal() keeps whole excerpts within the total character or token budget", () => {
  const r = (url: string, texts: string[]): ResearchResult => ({
    url,
    title: url,
    status: "ok",
    excerpts: texts.map((text) => ({ text, heading: [], score: 1 })),
  });
  const words = (text: string) => text.split(" ").length;
  const results = [r("a", ["one two three", "four five"]), r("b", ["six seven eight nine"])];
  const byChars = fitToTotal(results, { perPage: 100, total: 25 }, words);
  assert.deepEqual(byChars.results.map((x) => x.excerpts!.length), [2, 0]);
  assert.ok(byChars.charsUsed <= 25);
  const byTokens = fitToTotal(results, { perPage: 100, total: 1000, maxTokens: 4 }, words);
  assert.equal(byTokens.tokensUsed, 3);
  assert.deepEqual(byTokens.results.map((x) => x.tokens), [3, 0]);
});

Deno.test("research() keeps reading further candidates until count pages are good", async () => {
  const cs = Array.from({ length: 9 }, (_, i) => candidate(`p${i}`, i + 1));
  const pages: Record<string, PageRead> = {};
  cs.forEach((c, i) => {
    pages[c.url] = i < 5 ? page(c.url, "http_error") : page(c.url, "ok", article(`Tides ${i}`));
  });
  const asked: string[][] = [];
  const d = deps(cs, pages);
  const outcome = await research("why do tides rise and fall", {
    count: 3,
    budget: { perPage: 3000, total: 12000 },
  }, {
    ...d,
    read: (urls, onPage) => {
      asked.push(urls);
      const read = urls.map((u) => pages[u]!);
      read.forEach((p, i) => onPage?.(p, i));
      return Promise.resolve(read);
    },
  });
  assert.equal(outcome.results.filter((r) => r.status === "ok").length, 3);
  assert.equal(outcome.results.filter((r) => r.status === "http_error").length, 5);
  assert.deepEqual(asked.map((w) => w.length), [6, 3], "a second wave for the two still wanted");
});

Deno.test("research() reads no further wave once the read deadline has passed", async () => {
  const cs = Array.from({ length: 9 }, (_, i) => candidate(`p${i}`, i + 1));
  const pages = Object.fromEntries(cs.map((c) => [c.url, page(c.url, "timeout")]));
  const clock = { t: 0 };
  const asked: string[][] = [];
  const outcome = await research("why do tides rise and fall", {
    count: 3,
    budget: { perPage: 3000, total: 12000 },
    readDeadlineMs: 1000,
  }, {
    ...deps(cs, pages),
    now: () => clock.t,
    read: (urls) => {
      asked.push(urls);
      clock.t += 1000;
      return Promise.resolve(urls.map((u) => pages[u]!));
    },
  });
  assert.deepEqual(asked.map((w) => w.length), [6]);
  assert.equal(outcome.results.length, 6);
});
