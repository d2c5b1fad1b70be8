/**
 * The small pure pieces the parsers are built from: unwrapping redirect
 * links, dates, regions, merging duplicates.
 */
import assert from "node:assert/strict";
import { decodeBingLink } from "../../../src/pipeline/engines/bing.ts";
import {
  finalizeResults,
  fragmentText,
  isoDate,
  parseRegion,
} from "../../../src/pipeline/engines/common.ts";
import { parseDuckDuckGo, unwrapDdgLink } from "../../../src/pipeline/engines/duckduckgo.ts";
import { unwrapGoogleLink } from "../../../src/pipeline/engines/google.ts";

const DDG = "https://html.duckduckgo.com/html/";

Deno.test("unwrapDdgLink() unwraps relative, protocol-relative and absolute /l/ redirects", () => {
  const target = "https://example.org/a b?x=1&y=2";
  const wrapped = encodeURIComponent(target);
  assert.equal(
    unwrapDdgLink(`//duckduckgo.com/l/?uddg=${wrapped}&rut=ab`, DDG),
    "https://example.org/a%20b?x=1&y=2",
  );
  assert.equal(
    unwrapDdgLink(`/l/?kh=-1&uddg=${wrapped}`, DDG),
    "https://example.org/a%20b?x=1&y=2",
  );
  assert.equal(
    unwrapDdgLink(`https://duckduckgo.com/l/?uddg=${wrapped}`, DDG),
    "https://example.org/a%20b?x=1&y=2",
  );
  assert.equal(unwrapDdgLink("//example.net/page", DDG), "https://example.net/page");
});

Deno.test("unwrapDdgLink() drops ad clicks and links that are not http(s)", () => {
  assert.equal(unwrapDdgLink("https://duckduckgo.com/y.js?ad_domain=x.com&u3=abc", DDG), undefined);
  assert.equal(
    unwrapDdgLink(`/l/?uddg=${encodeURIComponent("https://duckduckgo.com/y.js?u3=1")}`, DDG),
    undefined,
  );
  assert.equal(unwrapDdgLink("javascript:void(0)", DDG), undefined);
  assert.equal(unwrapDdgLink("", DDG), undefined);
});

Deno.test("parseDuckDuckGo() reads an older page with relative /l/ links and no snippet links", () => {
  const html = `<html><body><div id="links" class="results">
    <div class="result results_links_deep highlight_d result--url-above-snippet">
      <div class="links_main links_deep result__body">
        <h2 class="result__title"><a rel="nofollow" class="result__a"
          href="/l/?kh=-1&amp;uddg=https%3A%2F%2Fwww.python.org%2F">Welcome to Python.org</a></h2>
        <div class="result__snippet">The official home of the <b>Python</b> Programming Language</div>
      </div>
    </div>
    <div class="result results_links_deep">
      <div class="links_main"><h2 class="result__title"><a class="result__a"
        href="https://docs.python.org/3/">3.12 Documentation</a></h2></div>
    </div></div></body></html>`;
  const results = parseDuckDuckGo(html, DDG);
  assert.deepEqual(results.map((r) => [r.rank, r.url, r.title, r.snippet]), [
    [
      1,
      "https://www.python.org/",
      "Welcome to Python.org",
      "The official home of the Python Programming Language",
    ],
    [2, "https://docs.python.org/3/", "3.12 Documentation", ""],
  ]);
});

Deno.test("decodeBingLink() decodes u=a1<base64url>, UTF-8 included, and drops links into Bing", () => {
  const target = "https://de.wikipedia.org/wiki/Müller?q=ä&x=1";
  const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(target)))
    .replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
  const base = "https://www.bing.com/search?q=x";
  assert.equal(
    decodeBingLink(`https://www.bing.com/ck/a?!&&p=abc&u=a1${b64}&ntb=1`, base),
    new URL(target).href,
  );
  assert.equal(decodeBingLink(`/ck/a?!&&p=abc&u=a1${b64}`, base), new URL(target).href);
  assert.equal(decodeBingLink("https://www.bing.com/ck/a?!&&p=abc&u=zz", base), undefined);
  assert.equal(decodeBingLink("/images/search?q=x", base), undefined);
  assert.equal(decodeBingLink("https://example.com/direct", base), "https://example.com/direct");
});

Deno.test("unwrapGoogleLink() unwraps /url?q=, keeps Google's other sites, drops search links", () => {
  const base = "https://www.google.com/search?q=x";
  assert.equal(
    unwrapGoogleLink("/url?q=https://a.org/x%3Fy%3D1&sa=U", base),
    "https://a.org/x?y=1",
  );
  assert.equal(unwrapGoogleLink("/search?q=related", base), undefined);
  assert.equal(unwrapGoogleLink("https://www.google.com/search?tbm=isch&q=x", base), undefined);
  assert.equal(
    unwrapGoogleLink("https://artsandculture.google.com/theme/x", base),
    "https://artsandculture.google.com/theme/x",
  );
});

Deno.test("isoDate() reads the dates engines print and ignores relative ones", () => {
  assert.equal(isoDate("Jan 10, 2020"), "2020-01-10");
  assert.equal(isoDate("September 6, 2019"), "2019-09-06");
  assert.equal(isoDate("10 Mar 2024"), "2024-03-10");
  assert.equal(isoDate("2024-12-27T15:49:55"), "2024-12-27");
  assert.equal(isoDate("  2024-03-10T00:00:00.0000000"), "2024-03-10");
  assert.equal(isoDate("2 days ago"), undefined);
  assert.equal(isoDate("Foo 10, 2020"), undefined);
  assert.equal(isoDate(null), undefined);
});

Deno.test("parseRegion() reads DuckDuckGo-style and BCP 47 codes", () => {
  assert.deepEqual(parseRegion("us-en"), { country: "us", lang: "en" });
  assert.deepEqual(parseRegion("de-DE"), { country: "de", lang: "de" });
  assert.deepEqual(parseRegion("en-GB"), { country: "gb", lang: "en" });
  assert.deepEqual(parseRegion("fr"), { country: "fr", lang: "fr" });
  assert.equal(parseRegion("wt-wt"), undefined);
  assert.equal(parseRegion(undefined), undefined);
});

Deno.test("finalizeResults() merges the same page (fragment, trailing slash) and ranks from 1", () => {
  const results = finalizeResults([
    { url: "https://a.org/x/", title: "A", snippet: "" },
    { url: "https://b.org/", title: "B", snippet: "b" },
    {
      url: "https://a.org/x#part",
      title: "A again",
      snippet: "from the duplicate",
      published: "2024-01-01",
    },
  ], "bing");
  assert.deepEqual(results, [
    {
      url: "https://a.org/x/",
      title: "A",
      snippet: "from the duplicate",
      engine: "bing",
      rank: 1,
      published: "2024-01-01",
    },
    { url: "https://b.org/", title: "B", snippet: "b", engine: "bing", rank: 2 },
  ]);
});

Deno.test("fragmentText() strips tags and decodes entities of API snippets", () => {
  assert.equal(
    fragmentText("A &quot;Hello&quot; <strong>World</strong> &amp; more"),
    'A "Hello" World & more',
  );
  assert.equal(fragmentText(""), "");
});
