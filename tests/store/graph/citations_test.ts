import assert from "node:assert/strict";
import { extractCitations, sentenceAround } from "../../../src/store/graph/citations.ts";
import { tempArchive, webDoc } from "../archive/helpers.ts";

const REPORT = `# Tides

Tides follow the moon [1]. Waves are wind-driven, see [the NOAA page](https://noaa.gov/waves?utm_source=x "NOAA").
Storm surges matter too[^2]. Raw link: https://example.org/bare-page.

- Sea level data lives at https://psmsl.org/data (open).
![chart](https://img.example/chart.png)

[1]: https://ex.org/tides "Tides explained"
[^2]: Smith et al. 2020, https://doi.org/10.1000/surge.
[3] Jones, Coastal floods. https://jones.example/floods
`;

Deno.test("extractCitations() reads links, bare URLs, reference lists and footnotes", () => {
  const found = extractCitations(REPORT);
  assert.deepEqual(found.map((c) => c.url), [
    "https://ex.org/tides",
    "https://noaa.gov/waves",
    "https://doi.org/10.1000/surge",
    "https://example.org/bare-page",
    "https://psmsl.org/data",
    "https://jones.example/floods",
  ]);
  const context = Object.fromEntries(found.map((c) => [c.url, c.context]));
  assert.equal(context["https://ex.org/tides"], "Tides follow the moon.");
  assert.equal(context["https://noaa.gov/waves"], "Waves are wind-driven, see the NOAA page.");
  assert.equal(context["https://doi.org/10.1000/surge"], "Storm surges matter too.");
  assert.equal(
    context["https://psmsl.org/data"],
    "Sea level data lives at https://psmsl.org/data (open).",
  );
  assert.equal(context["https://jones.example/floods"], "Jones, Coastal floods.");
});

Deno.test("extractCitations() skips images, non-http links and repeats", () => {
  const found = extractCitations(
    "![a](https://img.example/a.png) [mail](mailto:a@b.c) [x](https://a.org/p#one) [y](https://a.org/p#two)",
  );
  assert.deepEqual(found.map((c) => c.url), ["https://a.org/p"]);
});

Deno.test("extractCitations() resolves relative links against a base", () => {
  const found = extractCitations("See [the docs](/docs/intro).", "https://site.org/blog/post");
  assert.deepEqual(found.map((c) => c.url), ["https://site.org/docs/intro"]);
});

Deno.test("sentenceAround() keeps one sentence and cuts long ones", () => {
  const text = "First one. The second has the link here. Third.";
  const at = text.indexOf("link");
  assert.equal(sentenceAround(text, at, at + 4), "The second has the link here.");
  assert.equal(sentenceAround("word ".repeat(200), 0, 4, 50).length, 50);
});

Deno.test("citations link to documents archived before or after, and related() walks depth", async () => {
  const t = await tempArchive();
  try {
    const a = t.archive;
    const [report] = a.upsertDocuments([
      webDoc("https://r.example/report", "Report", "A report.", { source: "research" }),
    ]);
    a.addCitations(
      extractCitations(REPORT).map((c) => ({
        sourceId: report!.id,
        targetUrl: c.url,
        context: c.context,
        confidence: 1,
        kind: "citation" as const,
      })),
    );
    assert.equal(a.stats().resolvedCitations, 0);
    // The cited page arrives later, under a non-canonical spelling.
    const [tides] = a.upsertDocuments([webDoc("https://EX.org/tides/#top", "Tides", "Moon.")]);
    const [moon] = a.upsertDocuments([webDoc("https://moon.example/", "Moon", "Rock.")]);
    a.addCitations([{
      sourceId: tides!.id,
      targetUrl: "https://moon.example",
      context: "the moon",
      confidence: 1,
      kind: "link",
    }]);
    assert.equal(a.stats().resolvedCitations, 2);

    const one = a.related(report!.id, 1)!;
    assert.ok(
      one.related.some((r) => r.id === tides!.id && r.relation === "cites" && r.depth === 1),
    );
    assert.ok(!one.related.some((r) => r.id === moon!.id));
    assert.ok(one.related.some((r) => r.id === null && r.url === "https://noaa.gov/waves"));
    const two = a.related("https://r.example/report", 2)!;
    assert.ok(two.related.some((r) => r.id === moon!.id && r.depth === 2));
    const back = a.related(moon!.id, 2)!;
    assert.deepEqual(
      back.related.map((r) => [r.id, r.relation, r.depth]),
      [[tides!.id, "cited_by", 1], [report!.id, "cited_by", 2]],
    );

    const hit = a.search("tides", { citations: true, depth: 1 }).hits.find((h) =>
      h.id === tides!.id
    )!;
    assert.deepEqual(hit.cites!.map((c) => c.id), [moon!.id]);
    assert.deepEqual(hit.citedBy!.map((c) => c.id), [report!.id]);
    assert.equal(hit.citedBy![0]!.context, "Tides follow the moon.");
    assert.deepEqual(hit.mentions, [{ from: report!.id, context: "**Tides** follow the moon." }]);
    const plain = a.search("tides").hits.find((h) => h.id === tides!.id)!;
    assert.equal(plain.mentions, undefined, "mentions come with citations only");
    assert.equal(a.related("999"), undefined);
  } finally {
    await t.close();
  }
});

Deno.test("upsertDocuments() links near-duplicate documents as similar, below confidence 1", async () => {
  const t = await tempArchive();
  try {
    const words = Array.from({ length: 120 }, (_, i) => `word${i % 97} term${i}`).join(" ");
    const [a, b, c] = t.archive.upsertDocuments([
      webDoc("https://a.example/", "A", words),
      webDoc("https://b.example/", "B", `${words} with a short extra tail at the end`),
      webDoc(
        "https://c.example/",
        "C",
        Array.from({ length: 200 }, (_, i) => `other${i}`).join(" "),
      ),
    ]);
    const related = t.archive.related(b!.id, 1)!.related;
    assert.equal(related.length, 1);
    assert.equal(related[0]!.id, a!.id);
    assert.equal(related[0]!.relation, "similar");
    assert.ok(related[0]!.confidence < 1 && related[0]!.confidence >= 0.5);
    assert.equal(t.archive.related(c!.id, 1)!.related.length, 0);
    assert.deepEqual(t.archive.stats().byKind, { similar: 1 });
  } finally {
    await t.close();
  }
});
