import assert from "node:assert/strict";
import {
  dedupeCandidates,
  dropBlocked,
  prefilter,
  selectCandidates,
  versionlessKey,
} from "../../src/pipeline/candidates.ts";
import type { Candidate } from "../../src/pipeline/types.ts";

function c(url: string, title = "Deno KV atomic transactions", snippet = ""): Candidate {
  return { url, title, snippet, engine: "e", rank: 1 };
}

Deno.test("dedupeCandidates() merges tracking-parameter copies and /v1/ vs /v2/ documents", () => {
  const out = dedupeCandidates([
    c("https://docs.test/v2/kv/atomic"),
    c("https://docs.test/v2/kv/atomic?utm_source=x#top"),
    c("https://docs.test/v1/kv/atomic"),
    c("https://docs.test/v2/kv/watch"),
  ]);
  assert.deepEqual(out.kept.map((k) => k.url), [
    "https://docs.test/v2/kv/atomic",
    "https://docs.test/v2/kv/watch",
  ]);
  assert.deepEqual(out.dropped.map((d) => d.status), ["duplicate", "duplicate"]);
  assert.equal(versionlessKey("https://a.test/v1.2/x"), versionlessKey("https://a.test/v3/x"));
});

Deno.test("dropBlocked() drops blocked domains and their subdomains, with the reason", () => {
  const out = dropBlocked([c("https://mobile.x.com/a"), c("https://notx.com/a")], ["x.com"]);
  assert.deepEqual(out.kept.map((k) => k.url), ["https://notx.com/a"]);
  assert.match(out.dropped[0]!.reason, /JavaScript/);
});

Deno.test("prefilter() keeps candidates whose title, snippet and URL cover enough of the query", () => {
  const out = prefilter(
    [
      c("https://a.test/kv-atomic", "Atomic operations in Deno KV"),
      c("https://b.test/bread", "Sourdough starter care", "flour and water"),
    ],
    "deno kv atomic transactions",
    0.4,
  );
  assert.deepEqual(out.kept.map((k) => k.url), ["https://a.test/kv-atomic"]);
  assert.match(out.dropped[0]!.reason, /cover 0% of the query/);
});

Deno.test("selectCandidates() reports every dropped candidate", () => {
  const out = selectCandidates([
    c("https://a.test/kv"),
    c("https://a.test/kv?fbclid=1"),
    c("https://twitter.com/deno/status/1"),
    c("https://b.test/x", "Unrelated"),
  ], "deno kv atomic");
  assert.equal(out.kept.length, 1);
  assert.deepEqual(out.dropped.map((d) => d.status).sort(), ["duplicate", "filtered", "filtered"]);
});

Deno.test("prefilter() reads words from URLs with broken percent escapes without throwing", () => {
  const out = prefilter([c("https://a.test/deno-kv-atomic/%C3%28", "Notes", "")], "deno kv", 0.4);
  assert.equal(out.kept.length, 1);
});
