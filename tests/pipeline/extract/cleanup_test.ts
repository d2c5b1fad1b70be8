import assert from "node:assert/strict";
import { cleanArticle, trimHead, trimTail } from "../../../src/pipeline/extract/cleanup.ts";
import { fallbackRoot } from "../../../src/pipeline/extract/fallback.ts";
import { findLead, prependLead } from "../../../src/pipeline/extract/lead.ts";
import { parsePage } from "../../../src/pipeline/extract/prepare.ts";

const doc = (html: string) =>
  parsePage(`<html><head></head><body>${html}</body></html>`, "https://x/", "https://x/").document;
const LONG = "Real article text that goes on for a while. ".repeat(20);

Deno.test("cleanArticle() removes captions, date lines and widgets", () => {
  const d = doc(`<div id="a"><p class="byline">By Ann</p><p>${LONG}</p>
    <figure><img src="x.jpg"><figcaption>Photo: Agency</figcaption></figure>
    <div class="author-box">Ann writes about rivers.</div><ul class="related-posts"><li>Other</li></ul>
    <table><tr><td class="date">2024-01-01</td><td>Opening</td></tr></table></div>`);
  const root = d.querySelector("#a")!;
  cleanArticle(root);
  const text = root.textContent ?? "";
  assert.doesNotMatch(text, /By Ann|Photo: Agency|writes about rivers|Other/);
  assert.match(text, /Real article text/);
  assert.match(text, /2024-01-01/, "dates in tables are data");
});

Deno.test("cleanArticle() keeps a wrapper whose class looks like a widget", () => {
  const d = doc(
    `<div id="a"><div class="related-content-wrapper"><p>${LONG}</p></div><p>short</p></div>`,
  );
  const root = d.querySelector("#a")!;
  cleanArticle(root);
  assert.match(root.textContent ?? "", /Real article text/);
});

Deno.test("fallbackRoot() drops page furniture but keeps the main content", () => {
  const d = doc(`<header>Site</header><nav>Menu</nav><div class="cookie-banner">Accept</div>
    <main><header><h1>Heading</h1></header><p>${LONG}</p></main><aside>Ads</aside><footer>Foot</footer>`);
  const text = fallbackRoot(d).textContent ?? "";
  assert.match(text, /Heading/, "an article's own header stays");
  assert.match(text, /Real article text/);
  assert.doesNotMatch(text, /Site|Menu|Accept|Ads|Foot/);
});

Deno.test("findLead() finds the standfirst next to the headline and prependLead() adds it once", () => {
  const d = doc(`<article><header><h1>Headline</h1>
    <p class="article-lead">The one-sentence summary that the header carries.</p></header>
    <div id="body"><p>${LONG}</p></div></article>`);
  const lead = findLead(d);
  assert.equal(lead, "The one-sentence summary that the header carries.");
  const root = d.querySelector("#body")!;
  prependLead(root, lead!);
  prependLead(root, lead!);
  assert.equal(root.firstElementChild?.textContent, lead);
  assert.equal(root.querySelectorAll("p").length, 2);
});

Deno.test("findLead() ignores pages without a headline", () => {
  assert.equal(findLead(doc(`<p class="intro">${LONG}</p>`)), null);
});

Deno.test("trimTail() drops a closing 'related' link list and its heading", () => {
  const d = doc(`<div id="a"><div><p>${LONG}</p><p>Last real paragraph.</p>
    <h3>Read more</h3><ul><li><a href="/1">One story</a></li><li><a href="/2">Two story</a></li></ul>
    <p>Also on this topic:</p><p>© 2025 Example Media. All rights reserved.</p>
    <p><img src="end.jpg"></p></div></div>`);
  const root = d.querySelector("#a")!;
  trimTail(root);
  const text = root.textContent ?? "";
  assert.match(text, /Last real paragraph\./);
  assert.doesNotMatch(text, /Read more|One story|this topic|All rights/);
  assert.ok(root.querySelector("img"), "images at the end stay");
});

Deno.test("trimTail() keeps a closing pull quote set as a heading", () => {
  const d = doc(`<div id="a"><p>${LONG}</p><h3>He never came back to the valley.</h3></div>`);
  const root = d.querySelector("#a")!;
  trimTail(root);
  assert.match(root.textContent ?? "", /never came back/);
});

Deno.test("trimTail() keeps a page that is mostly a list of links", () => {
  const d = doc(`<div id="a"><h1>Links</h1><ul><li><a href="/1">First resource</a></li>
    <li><a href="/2">Second resource</a></li></ul></div>`);
  const root = d.querySelector("#a")!;
  trimTail(root);
  assert.match(root.textContent ?? "", /First resource/);
});

Deno.test("trimHead() drops the date lines under the title, not a line with a year in it", () => {
  const d = doc(
    `<div id="a"><h2>Title</h2><div><p>Donnerstag, 31. Mai 2012</p><p>24.01.2022 11:38</p>
    <p>The Garden · Derek Jarman (1990)</p><p>${LONG}</p></div></div>`,
  );
  const root = d.querySelector("#a")!;
  trimHead(root);
  const text = root.textContent ?? "";
  assert.doesNotMatch(text, /31\. Mai|24\.01\.2022/);
  assert.match(text, /Title/);
  assert.match(text, /Derek Jarman \(1990\)/);
});
