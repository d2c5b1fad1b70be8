import assert from "node:assert/strict";
import { type DocResult, docsOp } from "../../src/ops/docs.ts";
import { countTokens, loadTokenizer } from "../../src/text/tokens.ts";
import type { Envelope } from "../../src/envelope.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { apiContext } from "./api_context.ts";
import type { Env } from "../../src/config.ts";

await loadTokenizer();

type DocsArgs = Parameters<typeof docsOp.run>[1];

function args(library: string, query: string, extra: Partial<DocsArgs> = {}): DocsArgs {
  return docsOp.input.parse({ library, query, ...extra });
}

/** Runs docs against a fresh fixture web and store; `mode` picks a fault (`~429-forever`…). */
async function runDocs(
  input: DocsArgs,
  options: { mode?: string; env?: Env; again?: DocsArgs } = {},
) {
  const web = await startFixtureWeb();
  const base = `${web.origin}/context7${options.mode ? `/${options.mode}` : ""}`;
  const t = await apiContext(web, { QUARRY_CONTEXT7_URL: base, ...options.env });
  try {
    const first = await docsOp.run(t.ctx, input) as Envelope<DocResult>;
    const requestsAfterFirst = web.requests.length;
    const second = options.again ? await docsOp.run(t.ctx, options.again) : undefined;
    return {
      first,
      second,
      requests: web.requests,
      requestsAfterFirst,
      sleeps: t.sleeps,
      elapsed: t.clock.t - Date.UTC(2026, 10, 21, 12),
    };
  } finally {
    await t.close();
    await web.close();
  }
}

function ok(envelope: Envelope<DocResult>): DocResult[] {
  assert.ok(envelope.success, JSON.stringify(envelope));
  return envelope.results;
}

function errorCode(envelope: Envelope): string | undefined {
  return envelope.success ? undefined : envelope.error.code;
}

Deno.test("docs resolves a library name and returns ranked snippets within the budget", async () => {
  const { first, second, requests, requestsAfterFirst } = await runDocs(
    args("React", "how do hooks keep state"),
    { again: args("react ", "How do hooks keep state") },
  );
  const results = ok(first);
  assert.ok(first.success);
  const meta = first.metadata;
  assert.equal(meta.library_id, "/facebook/react");
  assert.equal(meta.backend, "context7");
  assert.equal(meta.confidence, "HIGH");
  assert.equal(meta.cache_hit, false);
  assert.equal(meta.max_tokens, 2000);
  assert.equal(meta.total_available, 9);
  assert.equal(meta.returned, results.length);
  assert.equal(results.length, 9, "the whole fixture fits in 2000 tokens");
  assert.equal(meta.tokens_used, results.reduce((n, r) => n + r.tokens, 0));
  assert.ok((meta.tokens_used as number) <= 2000);
  // Code and prose are interleaved by rank.
  assert.equal(results[0]?.title, "Declare a state variable with useState");
  assert.equal(results[1]?.title, "Rules of React > Rules of Hooks");
  assert.match(results[0]!.content, /```jsx\nimport \{ useState \}/);
  assert.match(results[1]!.source_url ?? "", /rules-of-hooks\.md$/);
  assert.ok(requests.some((r) => r.startsWith("/context7/v2/libs/search?libraryName=React")));
  assert.ok(requests.some((r) => r.includes("/v2/context?libraryId=%2Ffacebook%2Freact")));
  assert.ok(requests.some((r) => r.includes("type=json")));

  assert.ok(second?.success);
  assert.equal(second.metadata.cache_hit, true, "same input up to case and spaces");
  assert.deepEqual(second.results, results);
  assert.equal(requests.length, requestsAfterFirst, "a cache hit asks nobody");
});

Deno.test("docs stops adding snippets when the token budget is spent", async () => {
  const { first } = await runDocs(args("react", "hooks", { maxTokens: 300 }));
  const results = ok(first);
  assert.ok(first.success);
  assert.ok(results.length >= 2 && results.length < 9, `returned ${results.length}`);
  assert.ok((first.metadata.tokens_used as number) <= 300);
  for (const r of results) assert.equal(r.tokens, countTokens(`${r.title}\n\n${r.content}`));
  assert.equal(first.metadata.total_available, 9);
});

Deno.test("docs cuts a first snippet larger than the budget instead of returning nothing", async () => {
  const { first } = await runDocs(args("react", "hooks", { maxTokens: 40 }));
  const results = ok(first);
  assert.equal(results.length, 1);
  assert.ok(results[0]!.tokens <= 40);
  assert.ok(!results[0]!.content.includes("```"), "no half code block");
});

Deno.test("docs takes a Context7 ID as is and tolerates a typo in a name", async () => {
  const byId = await runDocs(args("/honojs/hono", "routing order"));
  assert.equal(ok(byId.first)[0]?.title, "Hello World with Hono on Deno");
  assert.ok(!byId.requests.some((r) => r.includes("libs/search")));
  const typo = await runDocs(args("honno", "routing order"));
  assert.ok(typo.first.success);
  assert.equal(typo.first.metadata.library_id, "/honojs/hono");
});

Deno.test("docs fails with LIBRARY_NOT_FOUND and close names for an unknown library", async () => {
  const { first } = await runDocs(args("reactive-streams", "backpressure"));
  assert.equal(errorCode(first), "LIBRARY_NOT_FOUND");
  assert.ok(!first.success);
  assert.ok(first.error.suggestions.some((s) => s.includes("React (/facebook/react)")));
  const none = await runDocs(args("qqqzzzxx", "anything"));
  assert.equal(errorCode(none.first), "LIBRARY_NOT_FOUND");
  assert.ok(!none.first.success);
  assert.match(none.first.error.suggestions.join(" "), /Context7 library ID/);
});

Deno.test("docs without a key fails with MISSING_API_KEY and says where to get one", async () => {
  const { first, requests } = await runDocs(args("react", "hooks"), {
    env: { CONTEXT7_API_KEY: "" },
  });
  assert.equal(errorCode(first), "MISSING_API_KEY");
  assert.ok(!first.success);
  assert.match(first.error.suggestions.join(" "), /context7\.com\/dashboard/);
  assert.equal(requests.length, 0);
});

Deno.test("docs reports a rejected key (401) as MISSING_API_KEY without retrying", async () => {
  const { first, requests } = await runDocs(args("react", "hooks"), {
    env: { CONTEXT7_API_KEY: "wrong-key" },
  });
  assert.equal(errorCode(first), "MISSING_API_KEY");
  assert.ok(!first.success);
  assert.match(first.error.message, /rejected/);
  assert.equal(requests.length, 1);
});

Deno.test("docs retries after 429, honouring Retry-After, then succeeds", async () => {
  const { first, sleeps } = await runDocs(args("react", "hooks"), { mode: "~429-then-ok" });
  assert.ok(first.success);
  assert.deepEqual(sleeps, [1000, 1000], "one Retry-After wait per endpoint");
});

Deno.test("docs gives RATE_LIMITED within a minute when 429 never ends", async () => {
  const { first, sleeps, elapsed } = await runDocs(args("react", "hooks"), {
    mode: "~429-forever",
  });
  assert.equal(errorCode(first), "RATE_LIMITED");
  assert.ok(sleeps.length >= 2 && sleeps.every((s) => s === 5000), String(sleeps));
  assert.ok(elapsed <= 45_000, `gave up after ${elapsed} ms of (fake) time`);
});

Deno.test("docs retries 5xx with backoff, then reports UPSTREAM_ERROR", async () => {
  const recovered = await runDocs(args("react", "hooks"), { mode: "~500-then-ok" });
  assert.ok(recovered.first.success);
  const { first, sleeps } = await runDocs(args("react", "hooks"), { mode: "~500" });
  assert.equal(errorCode(first), "UPSTREAM_ERROR");
  assert.equal(sleeps.length, 5);
  for (let i = 1; i < sleeps.length; i++) assert.ok(sleeps[i]! >= sleeps[i - 1]!, "backoff grows");
});

Deno.test("docs turns malformed JSON into UPSTREAM_ERROR", async () => {
  const { first } = await runDocs(args("react", "hooks"), { mode: "~malformed" });
  assert.equal(errorCode(first), "UPSTREAM_ERROR");
  assert.ok(!first.success);
  assert.match(first.error.message, /malformed JSON/);
});

Deno.test("docs reports a service slower than --timeout as TIMEOUT", async () => {
  const { first } = await runDocs(args("react", "hooks", { timeout: "200ms" }), { mode: "~slow" });
  assert.equal(errorCode(first), "TIMEOUT");
});

Deno.test("docs --force refreshes the cache and --no-cache leaves it alone", async () => {
  const forced = await runDocs(args("react", "hooks"), {
    again: args("react", "hooks", { force: true }),
  });
  assert.equal(forced.second?.metadata?.cache_hit, false);
  assert.ok(forced.requests.length > forced.requestsAfterFirst);
  const skipped = await runDocs(args("react", "hooks", { noCache: true }), {
    again: args("react", "hooks"),
  });
  assert.equal(skipped.second?.metadata?.cache_hit, false, "--no-cache stored nothing");
});

Deno.test("docs renders Markdown with title, content and sources", async () => {
  const input = args("react", "hooks", { maxTokens: 300 });
  const { first } = await runDocs(input);
  const text = docsOp.render!(first, input);
  assert.match(text, /^# React: hooks\n/);
  assert.match(text, /^## Declare a state variable with useState$/m);
  assert.match(text, /^Source: https:\/\/github\.com\/reactjs\/react\.dev\//m);
});
