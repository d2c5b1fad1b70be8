import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { runQuarry, tempHome } from "../support/run_quarry.ts";

interface Result {
  url: string;
  title: string;
  status: string;
  reason?: string;
  relevance?: number;
  tokens?: number;
  archive_id?: string;
  excerpts?: { text: string; heading: string[]; score: number }[];
}
interface Env {
  success: boolean;
  query?: string;
  results: Result[];
  error?: { code: string; suggestions: string[] };
  metadata: Record<string, unknown> & {
    dropped?: { url: string; status: string; reason: string }[];
  };
}

const QUERY = "why does HTTP/3 avoid head-of-line blocking";

function env(origin: string): Record<string, string> {
  return { QUARRY_DDG_URL: `${origin}/research`, QUARRY_ENGINES: "duckduckgo" };
}

Deno.test("quarry search answers from the best pages and reports every dropped candidate", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(
      ["search", QUERY, "--json", "--diagnostics", "--timeout", "1s", "-n", "3"],
      { env: env(web.origin) },
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const out = run.json as Env;
    assert.equal(out.success, true);
    assert.equal(out.metadata.engine, "duckduckgo");
    assert.equal(out.metadata.cache_hit, false);
    const ok = out.results.filter((r) => r.status === "ok");
    assert.equal(ok[0]?.url, `${web.origin}/pages/articles/http3.html`, "best page first");
    const text = ok[0]!.excerpts!.map((e) => e.text).join(" ");
    assert.match(text, /lost packet/);
    assert.ok(text.length <= 3000, "per-page budget");
    const statusOf = (frag: string) =>
      [...out.results, ...(out.metadata.dropped ?? [])].find((r) => r.url.includes(frag))?.status;
    assert.equal(statusOf("utm_source"), "duplicate");
    assert.equal(statusOf("x.com"), "filtered");
    assert.equal(statusOf("link-list"), "filtered");
    assert.equal(statusOf("spa.html"), "empty");
    assert.equal(statusOf("fault/hang"), "timeout");
    assert.equal(statusOf("sourdough"), "filtered");
    assert.ok((out.metadata.tokens_used as number) > 0);
  } finally {
    await web.close();
  }
});

Deno.test("quarry search serves a repeated question from the cache, and --force refreshes it", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  try {
    const args = ["search", QUERY, "--json", "--timeout", "1s"];
    const first = (await runQuarry(args, { home, env: env(web.origin) })).json as Env;
    assert.equal(first.metadata.cache_hit, false);
    const before = web.requests.length;
    const second = (await runQuarry(args, { home, env: env(web.origin) })).json as Env;
    assert.equal(second.metadata.cache_hit, true);
    assert.equal(web.requests.length, before, "a cache hit asks nothing of the web");
    assert.deepEqual(second.results, first.results);
    const report = await runQuarry(args.filter((a) => a !== "--json"), {
      home,
      env: env(web.origin),
    });
    assert.match(
      report.stdout,
      /\n_From the cache \(\d+ s old, cached \d{4}-[^\n]+\n$/,
      report.stdout,
    );
    const forced = (await runQuarry([...args, "--force"], { home, env: env(web.origin) }))
      .json as Env;
    assert.equal(forced.metadata.cache_hit, false);
    assert.ok(web.requests.length > before);
  } finally {
    await web.close();
  }
});

Deno.test("quarry search --session never returns the same page twice for one question", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  try {
    const args = ["search", QUERY, "--json", "--timeout", "1s", "--session", "s1", "-n", "1"];
    const first = (await runQuarry(args, { home, env: env(web.origin) })).json as Env;
    const firstOk = first.results.filter((r) => r.status === "ok").map((r) => r.url);
    assert.equal(firstOk.length, 1);
    const second = (await runQuarry([...args, "--diagnostics"], { home, env: env(web.origin) }))
      .json as Env;
    const secondOk = second.results.filter((r) => r.status === "ok").map((r) => r.url);
    assert.ok(!secondOk.includes(firstOk[0]!), "the page returned before is skipped");
    assert.equal(
      second.metadata.dropped?.find((d) => d.url === firstOk[0])?.status,
      "duplicate",
    );
  } finally {
    await web.close();
  }
});

Deno.test("quarry search --max-tokens keeps the whole answer within the token budget", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(
      ["search", QUERY, "--json", "--timeout", "1s", "--max-tokens", "120"],
      { env: env(web.origin) },
    );
    const out = run.json as Env;
    assert.equal(out.success, true, run.stdout);
    assert.ok((out.metadata.tokens_used as number) <= 120);
    assert.ok((out.metadata.tokens_used as number) > 0);
    assert.equal(out.metadata.max_tokens, 120);
    const sum = out.results.reduce((n, r) => n + (r.tokens ?? 0), 0);
    assert.equal(sum, out.metadata.tokens_used);
  } finally {
    await web.close();
  }
});

Deno.test("quarry search prints a Markdown report by default, and needs no quotes", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(["search", ...QUERY.split(" "), "--timeout", "1s", "-n", "2"], {
      env: env(web.origin),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.startsWith(`## ${web.origin}/pages/articles/http3.html`));
    assert.match(run.stdout, /\n---\n/);
  } finally {
    await web.close();
  }
});

Deno.test("quarry search fails with CAPTCHA and exit 1 when every engine is blocked", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(["search", QUERY, "--json"], {
      env: {
        QUARRY_ENGINES: "duckduckgo,duckduckgo-lite",
        QUARRY_DDG_URL: `${web.origin}/ddg/~captcha`,
        QUARRY_DDG_LITE_URL: `${web.origin}/ddg-lite/~captcha`,
      },
    });
    assert.equal(run.code, 1);
    const out = run.json as Env;
    assert.equal(out.success, false);
    assert.equal(out.error?.code, "CAPTCHA");
    assert.ok(out.error!.suggestions.length > 0);
    assert.equal((out.metadata.attempts as unknown[]).length, 2);
  } finally {
    await web.close();
  }
});

Deno.test("QUARRY_ROBOTS=1 search reports a disallowed result without requesting it", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(["search", QUERY, "--json", "--timeout", "1s", "-n", "5"], {
      env: { ...env(web.origin), QUARRY_ROBOTS: "1" },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const out = run.json as Env;
    assert.ok(!web.requests.includes("/pages/articles/http2.html"), web.requests.join(" "));
    assert.ok(web.requests.includes("/pages/articles/http3.html"));
    const refused = out.results.find((r) => r.url.endsWith("/pages/articles/http2.html"));
    assert.equal(refused?.status, "robots_disallowed", JSON.stringify(out.results));
  } finally {
    await web.close();
  }
});

Deno.test("quarry search -n 3 keeps reading further candidates when the first five pages fail", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(
      ["search", QUERY, "--json", "--diagnostics", "--timeout", "2s", "-n", "3"],
      { env: { QUARRY_DDG_URL: `${web.origin}/research-failing`, QUARRY_ENGINES: "duckduckgo" } },
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const out = run.json as Env;
    const ok = out.results.filter((r) => r.status === "ok");
    assert.equal(ok.length, 3, JSON.stringify(out.results.map((r) => [r.url, r.status])));
    assert.equal(out.results.filter((r) => r.status === "http_error").length, 5);
    assert.ok(ok.every((r) => r.url.includes("/pages/articles/")));
  } finally {
    await web.close();
  }
});
