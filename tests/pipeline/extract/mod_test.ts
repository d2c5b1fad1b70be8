/**
 * extract(): golden cases from `fixtures/extract/<case>/` (add one with
 * tests/support/add_golden.ts) and the behaviours around them.
 */
import assert from "node:assert/strict";
import { DEFAULT_EXTRACT_CONFIG, extract } from "../../../src/pipeline/extract/mod.ts";
import { type GoldenCase, SOURCE_TYPES } from "../../support/add_golden.ts";

const CASES = new URL("../../../fixtures/extract/", import.meta.url);
const collapse = (s: string): string => s.replace(/\s+/g, " ").trim();

const cases: { name: string; source: string; ext: string }[] = [];
for (const entry of Deno.readDirSync(CASES)) {
  if (!entry.isDirectory) continue;
  for (const ext of Object.keys(SOURCE_TYPES)) {
    const source = new URL(`${entry.name}/source.${ext}`, CASES);
    try {
      Deno.statSync(source);
      cases.push({ name: entry.name, source: source.pathname, ext });
    } catch {
      // not this extension
    }
  }
}
cases.sort((a, b) => a.name.localeCompare(b.name));

Deno.test("fixtures/extract holds the golden cases", () => {
  assert.ok(cases.length >= 8, `found ${cases.length} cases`);
});

for (const c of cases) {
  Deno.test(`extract() matches golden case ${c.name}`, () => {
    const expected = JSON.parse(
      Deno.readTextFileSync(new URL(`${c.name}/expected.json`, CASES)),
    ) as GoldenCase;
    const body = Deno.readTextFileSync(c.source);
    const contentType = expected.contentType ?? SOURCE_TYPES[c.ext]!;
    const result = extract(body, expected.url, { contentType });
    const a = result.article;
    const exact = {
      status: result.status,
      extractor: result.extractor,
      reason: result.reason,
      title: a.title,
      byline: a.byline,
      lang: a.lang,
      published: a.published,
      site: a.site,
      excerpt: a.excerpt,
      canonical: a.canonical,
      linkCount: a.links.length,
    };
    for (const [key, value] of Object.entries(exact)) {
      if (key in expected) assert.deepEqual(value, expected[key as keyof GoldenCase], key);
    }
    const text = collapse(a.text);
    for (const s of expected.contains ?? []) {
      assert.ok(text.includes(collapse(s)), `text has "${s}"`);
    }
    for (const s of expected.absent ?? []) {
      assert.ok(!text.includes(collapse(s)), `text lacks "${s}"`);
    }
    for (const s of expected.markdownContains ?? []) {
      assert.ok(a.markdown.includes(s), `markdown has ${JSON.stringify(s)}:\n${a.markdown}`);
    }
    for (const link of expected.links ?? []) {
      assert.ok(
        a.links.some((l) => l.url === link.url && l.text === link.text),
        `link ${link.url}`,
      );
    }
    (expected.blocksHead ?? []).forEach((want, i) => {
      const got = a.blocks[i];
      assert.ok(got, `block ${i} exists`);
      assert.equal(got.type, want.type, `block ${i} type`);
      assert.equal(got.level, want.level, `block ${i} level`);
      assert.ok(
        got.text.startsWith(want.text),
        `block ${i}: "${got.text}" starts with "${want.text}"`,
      );
    });
  });
}

Deno.test("extract() resolves links against the page URL and drops non-http(s) and in-page links", () => {
  const html = `<html><body><article><h1>Links</h1><p>${"Words to make an article. ".repeat(30)}
    <a href="next.html">next</a> <a href="//cdn.example.org/x">cdn</a> <a href="#top">top</a>
    <a href="https://other.example/a#b">other</a> <a href="mailto:a@b.c">mail</a>
    <a href="javascript:alert(1)">js</a> <a href="ftp://files.example/x">ftp</a>
    <a href="next.html">again</a></p></article></body></html>`;
  const { article } = extract(html, "https://site.example/dir/page.html");
  assert.deepEqual(article.links, [
    { url: "https://site.example/dir/next.html", text: "next" },
    { url: "https://cdn.example.org/x", text: "cdn" },
    { url: "https://other.example/a#b", text: "other" },
  ]);
});

Deno.test("extract() reads a short note that Readability finds too little of", () => {
  const html = `<html><head><title>Short note</title></head><body><nav><a href="/">Home</a></nav>
    <div>Office closed on Friday for maintenance of the heating system. Back on Monday.</div>
    <footer>Footer text</footer></body></html>`;
  const result = extract(html, "https://office.example/note", { emptyChars: 20 });
  assert.equal(result.status, "ok");
  assert.equal(result.article.title, "Short note");
  assert.match(result.article.text, /Office closed on Friday/);
  assert.doesNotMatch(result.article.text, /Footer text/);
});

Deno.test("extract() keeps an article that a site put inside <aside> or <header> in the fallback", () => {
  const para = "The council approved the new cycle lanes after a long debate about parking. ";
  const html = `<html><body><main><aside class="content-wrap"><header class="story">
    <p>${para.repeat(3)}</p></header></aside></main><footer>f</footer></body></html>`;
  const result = extract(html, "https://news.example/a", { minReadabilityChars: 10_000 });
  assert.match(result.article.text, /council approved the new cycle lanes/);
});

Deno.test("extract() says a page with scripts and no text is probably rendered by JavaScript", () => {
  const result = extract(
    `<html><head><title>App</title><script src="/app.js"></script></head><body><div id="app"></div></body></html>`,
    "https://app.example/",
  );
  assert.equal(result.status, "empty");
  assert.equal(result.reason, "probably rendered by JavaScript");
  assert.equal(result.article.title, "App");
});

Deno.test("extract() never throws on odd input", () => {
  for (
    const body of [
      "",
      "   ",
      "plain words",
      "<",
      "<html",
      "\u0000\u0001binary",
      "<p>unclosed <b>tags",
    ]
  ) {
    const result = extract(body, "not a url");
    assert.ok(result.status === "ok" || result.status === "empty");
    assert.equal(typeof result.article.text, "string");
  }
});

Deno.test("extract() reads text/plain with a charset parameter as text", () => {
  const result = extract("Title line\n\nBody paragraph one.", "https://x.example/a.txt", {
    contentType: "text/plain; charset=utf-8",
    emptyChars: 1,
  });
  assert.equal(result.extractor, "text");
  assert.equal(result.article.title, "Title line");
});

Deno.test("extract() with refine off keeps Readability's text, captions included", () => {
  const html = `<html><body><article><p>${
    "A long enough paragraph of article text. ".repeat(20)
  }</p>
    <figure><img src="a.jpg"><figcaption>Caption credit: Agency</figcaption></figure>
    <p>${"Another paragraph of the same article. ".repeat(10)}</p></article></body></html>`;
  const on = extract(html, "https://x.example/");
  const off = extract(html, "https://x.example/", { refine: false });
  assert.doesNotMatch(on.article.text, /Caption credit/);
  assert.match(off.article.text, /Caption credit/);
  assert.equal(DEFAULT_EXTRACT_CONFIG.refine, true);
});

Deno.test("extract() reads CSV and JSON bodies as text, HTML-ish types as HTML", () => {
  const csv = extract("name,score\nann,3\n", "https://x.example/a.csv", {
    contentType: "text/csv",
    emptyChars: 1,
  });
  assert.equal(csv.extractor, "text");
  const json = extract('{"a": 1}', "https://x.example/a.json", {
    contentType: "application/ld+json",
    emptyChars: 1,
  });
  assert.equal(json.extractor, "text");
  const xhtml = extract("<p>x</p>", "https://x.example/", { contentType: "application/xhtml+xml" });
  assert.notEqual(xhtml.extractor, "text");
});
