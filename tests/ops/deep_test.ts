import assert from "node:assert/strict";
import type { Env } from "../../src/config.ts";
import { type DeepEnvelope, deepOp } from "../../src/ops/deep.ts";
import type { Citation } from "../../src/pipeline/apis/perplexity.ts";
import { countTokens, loadTokenizer } from "../../src/text/tokens.ts";
import type { Envelope } from "../../src/envelope.ts";
import type { Archive } from "../../src/store/archive/archive.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { apiContext } from "./api_context.ts";

await loadTokenizer();

type DeepArgs = Parameters<typeof deepOp.run>[1];

const FIXTURE = JSON.parse(
  await Deno.readTextFile(
    new URL("../../fixtures/apis/perplexity/deep_research.json", import.meta.url),
  ),
);
const FULL_ANSWER: string = FIXTURE.choices[0].message.content.replace(
  /^<think>[\s\S]*<\/think>\s*/,
  "",
);

function args(query: string, extra: Partial<DeepArgs> = {}): DeepArgs {
  return deepOp.input.parse({ query, ...extra });
}

/** Runs deep against a fresh fixture web and store; `inspect` sees the archive before it closes. */
async function runDeep(
  input: DeepArgs,
  options: {
    mode?: string;
    env?: Env;
    again?: DeepArgs;
    inspect?: (archive: Archive, envelope: Envelope<Citation>) => void;
  } = {},
) {
  const web = await startFixtureWeb();
  const base = `${web.origin}/perplexity${options.mode ? `/${options.mode}` : ""}`;
  const t = await apiContext(web, { QUARRY_PERPLEXITY_URL: base, ...options.env });
  try {
    const first = await deepOp.run(t.ctx, input) as Envelope<Citation>;
    const requestsAfterFirst = web.requests.length;
    const second = options.again ? await deepOp.run(t.ctx, options.again) : undefined;
    options.inspect?.(await t.archive(), first);
    return { first, second, requests: web.requests, requestsAfterFirst, sleeps: t.sleeps };
  } finally {
    await t.close();
    await web.close();
  }
}

function deep(envelope: Envelope<Citation>): DeepEnvelope {
  assert.ok(envelope.success, JSON.stringify(envelope));
  return envelope as DeepEnvelope;
}

function errorCode(envelope: Envelope): string | undefined {
  return envelope.success ? undefined : envelope.error.code;
}

Deno.test("deep returns the answer without reasoning, with its citations as results", async () => {
  const { first, second, requests, requestsAfterFirst } = await runDeep(
    args("How does SQLite WAL mode affect concurrency?"),
    { again: args("how does sqlite WAL mode affect concurrency? ") },
  );
  const env = deep(first);
  assert.ok(!env.answer.includes("<think>") && !env.answer.includes("The user asks"));
  assert.equal(env.answer, FULL_ANSWER, "fits in the default budget");
  assert.match(env.answer, /^# SQLite WAL mode and concurrency/);
  assert.equal(env.results.length, 6);
  assert.deepEqual(env.results[0], {
    index: 1,
    url: "https://www.sqlite.org/wal.html",
    title: "Write-Ahead Logging",
    date: "2025-05-31",
    snippet: env.results[0]!.snippet,
    cited: true,
  });
  assert.equal(env.results[2]?.date, "2025-03-01", "last_updated stands in for a missing date");
  const m = env.metadata;
  assert.equal(m.backend, "perplexity-deep-research");
  assert.equal(m.confidence, "MEDIUM");
  assert.equal(m.model, "sonar-deep-research");
  assert.equal(m.cache_hit, false);
  assert.equal(m.truncated, false);
  assert.equal(m.tokens_used, countTokens(env.answer));
  assert.ok((m.tokens_used as number) <= (m.max_tokens as number));
  assert.deepEqual(m.unresolved_markers, []);
  assert.ok(requests.includes("/perplexity/chat/completions"));

  assert.ok(second?.success);
  assert.equal(second.metadata.cache_hit, true);
  assert.equal((second as DeepEnvelope).answer, env.answer);
  assert.equal(requests.length, requestsAfterFirst, "a cache hit asks nobody");
});

Deno.test("deep cuts the answer at a paragraph boundary within the token budget", async () => {
  const { first } = await runDeep(args("sqlite wal", { maxTokens: 150 }));
  const env = deep(first);
  assert.equal(env.metadata.truncated, true);
  assert.ok((env.metadata.tokens_used as number) <= 150);
  assert.equal(env.metadata.tokens_used, countTokens(env.answer));
  assert.ok(FULL_ANSWER.startsWith(`${env.answer}\n\n`), "ends where a paragraph ends");
  assert.ok((env.metadata.answer_tokens as number) > 150);
  const cited = env.results.filter((c) => c.cited).map((c) => c.index);
  assert.deepEqual(cited, [1, 2], "only sources the shortened answer still cites");
});

Deno.test("deep uses the configured model and reads citations without search_results", async () => {
  const { first } = await runDeep(args("sqlite wal"), {
    mode: "~plain",
    env: { QUARRY_PERPLEXITY_MODEL: "sonar-reasoning-pro" },
  });
  const env = deep(first);
  assert.equal(env.metadata.model, "sonar-reasoning-pro");
  assert.equal(env.results.length, 6);
  assert.deepEqual([env.results[5]?.url, env.results[5]?.title], [
    "https://www.sqlite.org/useovernet.html",
    null,
  ]);
});

Deno.test("deep archives the report as research with its citations in the graph", async () => {
  let checked = false;
  await runDeep(args("How does SQLite WAL mode affect concurrency?"), {
    inspect(archive, envelope) {
      const id = envelope.metadata?.archive_id as string;
      assert.ok(id, "archive_id is set");
      const doc = archive.get(id)!;
      assert.equal(doc.source, "research");
      assert.equal(doc.title, "SQLite WAL mode and concurrency");
      assert.ok(!doc.content.includes("<think>"));
      const hits = archive.search("checkpoint starvation").hits;
      assert.deepEqual(hits.map((h) => h.id), [id]);
      const related = archive.related(id)!.related.filter((r) => r.kind === "citation");
      assert.equal(related.length, 6);
      const wal = related.find((r) => r.url === "https://www.sqlite.org/wal.html");
      assert.match(wal?.context ?? "", /write-ahead logging \(WAL\) mode/);
      checked = true;
    },
  });
  assert.ok(checked);
});

Deno.test("deep without a key fails with MISSING_API_KEY and says where to get one", async () => {
  const { first, requests } = await runDeep(args("q"), { env: { PERPLEXITY_API_KEY: "" } });
  assert.equal(errorCode(first), "MISSING_API_KEY");
  assert.ok(!first.success);
  assert.match(first.error.suggestions.join(" "), /perplexity\.ai\/settings\/api/);
  assert.equal(requests.length, 0);
});

Deno.test("deep reports a rejected key (401) as MISSING_API_KEY", async () => {
  const { first } = await runDeep(args("q"), { env: { PERPLEXITY_API_KEY: "sk-wrong" } });
  assert.equal(errorCode(first), "MISSING_API_KEY");
  assert.ok(!first.success);
  assert.match(first.error.message, /rejected/);
});

Deno.test("deep retries after 429 and succeeds; gives RATE_LIMITED when 429 never ends", async () => {
  const recovered = await runDeep(args("q"), { mode: "~429-then-ok" });
  deep(recovered.first);
  assert.deepEqual(recovered.sleeps, [1000]);
  const { first, sleeps } = await runDeep(args("q"), { mode: "~429-forever" });
  assert.equal(errorCode(first), "RATE_LIMITED");
  assert.ok(sleeps.reduce((a, b) => a + b, 0) <= 45_000);
});

Deno.test("deep turns 5xx, malformed JSON and slowness into UPSTREAM_ERROR and TIMEOUT", async () => {
  assert.equal(errorCode((await runDeep(args("q"), { mode: "~500" })).first), "UPSTREAM_ERROR");
  assert.equal(
    errorCode((await runDeep(args("q"), { mode: "~malformed" })).first),
    "UPSTREAM_ERROR",
  );
  const slow = await runDeep(args("q", { timeout: "200ms" }), { mode: "~slow" });
  assert.equal(errorCode(slow.first), "TIMEOUT");
});

Deno.test("deep renders Markdown with linked markers and a sources list", async () => {
  const input = args("sqlite wal", { maxTokens: 150 });
  const { first } = await runDeep(input);
  const text = deepOp.render!(first, input);
  assert.match(text, /^# SQLite WAL mode and concurrency/);
  assert.ok(text.includes("[[1]](https://www.sqlite.org/wal.html)"));
  assert.match(text, /Answer cut to 150 tokens/);
  assert.match(
    text,
    /^## Sources\n\n1\. Write-Ahead Logging: https:\/\/www\.sqlite\.org\/wal\.html$/m,
  );
});
