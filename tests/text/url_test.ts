import assert from "node:assert/strict";
import { canonicalUrl } from "../../src/text/url.ts";

Deno.test("canonicalUrl() lower-cases scheme and host and drops the default port", () => {
  assert.equal(canonicalUrl("HTTPS://Example.COM:443/Path"), "https://example.com/Path");
  assert.equal(canonicalUrl("http://example.com:80/"), "http://example.com/");
  assert.equal(canonicalUrl("http://example.com:8080/"), "http://example.com:8080/");
});

Deno.test("canonicalUrl() drops the fragment and credentials", () => {
  assert.equal(canonicalUrl("https://a.org/x#section-2"), "https://a.org/x");
  assert.equal(canonicalUrl("https://user:pw@a.org/x"), "https://a.org/x");
});

Deno.test("canonicalUrl() removes tracking parameters and sorts the rest", () => {
  assert.equal(
    canonicalUrl(
      "https://a.org/p?utm_source=news&b=2&fbclid=1&a=1&gclid=2&msclkid=3&mc_cid=4&ref_src=twsrc",
    ),
    "https://a.org/p?a=1&b=2",
  );
  assert.equal(canonicalUrl("https://a.org/p?UTM_Medium=x"), "https://a.org/p");
  assert.equal(canonicalUrl("https://a.org/p?b=1&a=2&a=1"), "https://a.org/p?a=1&a=2&b=1");
});

Deno.test("canonicalUrl() applies one trailing-slash rule", () => {
  assert.equal(canonicalUrl("https://a.org/docs/"), "https://a.org/docs");
  assert.equal(canonicalUrl("https://a.org/docs"), "https://a.org/docs");
  assert.equal(canonicalUrl("https://a.org"), "https://a.org/");
  assert.equal(canonicalUrl("https://a.org/"), "https://a.org/");
  assert.equal(canonicalUrl("https://a.org/docs/?q=1"), "https://a.org/docs?q=1");
});

Deno.test("canonicalUrl() maps variants of one page to one spelling", () => {
  const variants = [
    "https://Example.org/guide/?b=2&a=1",
    "https://example.org:443/guide?a=1&b=2#intro",
    "https://example.org/guide?utm_campaign=x&a=1&b=2",
  ];
  assert.equal(new Set(variants.map(canonicalUrl)).size, 1);
});

Deno.test("canonicalUrl() returns text that is not a URL trimmed and unchanged", () => {
  assert.equal(canonicalUrl("  not a url "), "not a url");
  assert.equal(canonicalUrl(""), "");
});
