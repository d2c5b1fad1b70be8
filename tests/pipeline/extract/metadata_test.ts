import assert from "node:assert/strict";
import { readMetadata, toIsoDate } from "../../../src/pipeline/extract/metadata.ts";
import { parsePage } from "../../../src/pipeline/extract/prepare.ts";

const URL_ = "https://news.example/story";
const meta = (head: string, body = "") =>
  readMetadata(
    parsePage(`<html lang="fr"><head>${head}</head><body>${body}</body></html>`, URL_, URL_)
      .document,
    URL_,
  );

Deno.test("readMetadata() reads JSON-LD inside @graph first", () => {
  const m = meta(`<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
    {"@type":"WebSite","name":"Site"},
    {"@type":"NewsArticle","headline":"Headline","datePublished":"2024-01-02T03:04:05Z",
     "author":[{"@type":"Person","name":"A. One"},{"@type":"Person","name":"B. Two"}],
     "publisher":{"@type":"Organization","name":"Daily Example"}}]}</script>
    <meta property="og:title" content="OG title">`);
  assert.equal(m.title, "Headline");
  assert.equal(m.byline, "A. One, B. Two");
  assert.equal(m.published, "2024-01-02T03:04:05Z");
  assert.equal(m.site, "Daily Example");
  assert.equal(m.lang, "fr");
});

Deno.test("readMetadata() survives broken JSON-LD and uses <meta> tags", () => {
  const m = meta(`<script type="application/ld+json">{not json</script>
    <meta property="og:title" content="OG title"><meta property="og:site_name" content="Site">
    <meta name="author" content="Ann"><meta property="article:published_time" content="2023-05-06">
    <meta name="description" content="What it is about.">
    <link rel="canonical" href="/canonical-story">`);
  assert.deepEqual(m, {
    title: "OG title",
    byline: "Ann",
    site: "Site",
    lang: "fr",
    published: "2023-05-06",
    excerpt: "What it is about.",
    canonical: "https://news.example/canonical-story",
  });
});

Deno.test("readMetadata() ignores an article:author that is a URL", () => {
  const m = meta(`<meta property="article:author" content="https://facebook.example/ann">`);
  assert.equal(m.byline, null);
});

Deno.test("toIsoDate() normalizes parseable dates and keeps the rest as written", () => {
  assert.equal(toIsoDate("2024-11-02T19:05:00+01:00"), "2024-11-02T18:05:00.000Z");
  assert.equal(toIsoDate("Tue, 05 Mar 2024 10:00:00 GMT"), "2024-03-05T10:00:00.000Z");
  assert.equal(toIsoDate("last Tuesday"), "last Tuesday");
  assert.equal(toIsoDate(null), null);
});
