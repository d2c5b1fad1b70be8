import assert from "node:assert/strict";
import { hasOperators, matchesQuery, parseQuery, renderQuery } from "../../src/pipeline/query.ts";
import type { Candidate } from "../../src/pipeline/types.ts";

function candidate(url: string, title = "", snippet = ""): Candidate {
  return { url, title, snippet, engine: "test", rank: 1 };
}

Deno.test("parseQuery() separates words, phrases, exclusions, sites and file types", () => {
  const q = parseQuery(
    'deno kv "atomic commit" -deploy -"edge functions" site:deno.com ' +
      "-site:example.org filetype:PDF -ext:doc",
  );
  assert.deepEqual(q.terms, ["deno", "kv"]);
  assert.deepEqual(q.phrases, ["atomic commit"]);
  assert.deepEqual(q.excluded, ["deploy", "edge functions"]);
  assert.deepEqual(q.sites, ["deno.com"]);
  assert.deepEqual(q.excludedSites, ["example.org"]);
  assert.deepEqual(q.filetypes, ["pdf"]);
  assert.deepEqual(q.excludedFiletypes, ["doc"]);
  assert.equal(hasOperators(q), true);
});

Deno.test("parseQuery() groups OR alternatives, phrases included, and folds site: OR site:", () => {
  const q = parseQuery('rust OR go OR "zig lang" tutorial site:a.org OR site:b.org');
  assert.deepEqual(q.anyOf, [["rust", "go", "zig lang"]]);
  assert.deepEqual(q.terms, ["tutorial"]);
  assert.deepEqual(q.sites, ["a.org", "b.org"]);
});

Deno.test("parseQuery() reads a lone or lower-case 'or' and an unterminated quote as words", () => {
  const q = parseQuery('OR this or that "open phrase');
  assert.deepEqual(q.terms, ["OR", "this", "or", "that"]);
  assert.deepEqual(q.phrases, ["open phrase"]);
  assert.equal(hasOperators(parseQuery("plain words only")), false);
});

Deno.test("parseQuery() keeps a hyphen inside a word and strips a scheme from site:", () => {
  const q = parseQuery("state-of-the-art site:https://Docs.Example.com/guide/");
  assert.deepEqual(q.terms, ["state-of-the-art"]);
  assert.deepEqual(q.sites, ["docs.example.com/guide"]);
});

Deno.test("renderQuery() writes operators back for engines that understand them", () => {
  const q = parseQuery('a "b c" x OR y -d site:e.org site:f.org -site:g.org filetype:pdf');
  assert.equal(
    renderQuery(q),
    'a "b c" x OR y -d site:e.org OR site:f.org -site:g.org filetype:pdf',
  );
  assert.equal(renderQuery(q, { operators: false }), "a b c x y");
});

Deno.test("matchesQuery() holds site: to the host and its subdomains only", () => {
  const q = parseQuery("deno site:deno.com");
  assert.equal(matchesQuery(candidate("https://deno.com/blog"), q), true);
  assert.equal(matchesQuery(candidate("https://docs.deno.com/kv"), q), true);
  assert.equal(matchesQuery(candidate("https://notdeno.com/"), q), false);
  assert.equal(matchesQuery(candidate("https://deno.com.evil.net/"), q), false);
  const path = parseQuery("site:example.com/docs");
  assert.equal(matchesQuery(candidate("https://example.com/docs/a"), path), true);
  assert.equal(matchesQuery(candidate("https://example.com/blog/a"), path), false);
});

Deno.test("matchesQuery() drops -site: hosts and enforces filetype: on the path", () => {
  const q = parseQuery("report -site:spam.net filetype:pdf");
  assert.equal(matchesQuery(candidate("https://a.org/r/2024.PDF?x=1"), q), true);
  assert.equal(matchesQuery(candidate("https://a.org/r/2024.html"), q), false);
  assert.equal(matchesQuery(candidate("https://www.spam.net/r.pdf"), q), false);
  const notDoc = parseQuery("report -filetype:doc");
  assert.equal(matchesQuery(candidate("https://a.org/r.doc"), notDoc), false);
});

Deno.test("matchesQuery() needs phrases as whole words across title, snippet and URL", () => {
  const q = parseQuery('"hello world"');
  assert.equal(matchesQuery(candidate("https://a.org/", "Hello, World! program"), q), true);
  assert.equal(matchesQuery(candidate("https://a.org/hello-world"), q), true);
  assert.equal(matchesQuery(candidate("https://a.org/", "hello worldwide"), q), false);
});

Deno.test("matchesQuery() rejects excluded words but not words that merely contain them", () => {
  const q = parseQuery("python -snake");
  assert.equal(matchesQuery(candidate("https://a.org/", "Python", "a snake"), q), false);
  assert.equal(matchesQuery(candidate("https://a.org/", "Python", "snakes and ladders"), q), true);
});

Deno.test("matchesQuery() needs one member of each OR group", () => {
  const q = parseQuery("rust OR zig");
  assert.equal(matchesQuery(candidate("https://a.org/", "Zig guide"), q), true);
  assert.equal(matchesQuery(candidate("https://a.org/", "Go guide"), q), false);
});

Deno.test("matchesQuery() refuses a candidate whose URL does not parse", () => {
  assert.equal(matchesQuery(candidate("not a url"), parseQuery("anything")), false);
});
