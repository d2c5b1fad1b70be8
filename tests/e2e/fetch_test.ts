import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { runQuarry, tempHome } from "../support/run_quarry.ts";

interface Page {
  url: string;
  status: string;
  reason?: string;
  title?: string;
  byline?: string | null;
  site?: string | null;
  lang?: string | null;
  published?: string | null;
  content?: string;
  links?: { url: string; text: string }[];
  total_chars?: number;
  next_start?: number | null;
  chars?: number;
}
interface Env {
  success: boolean;
  results: Page[];
  error?: { code: string; message: string; suggestions: string[] };
  metadata: Record<string, unknown>;
}

Deno.test("quarry fetch --json returns the article's text, metadata and absolute links", async () => {
  const web = await startFixtureWeb();
  try {
    const url = `${web.origin}/pages/articles/http3.html`;
    const run = await runQuarry(["fetch", url, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const env = run.json as Env;
    assert.equal(env.success, true);
    const page = env.results[0]!;
    assert.equal(page.status, "ok");
    assert.match(page.title!, /HTTP\/3 explained/);
    assert.equal(page.byline?.includes("Ada Fielding"), true);
    assert.equal(page.lang, "en");
    assert.match(page.published ?? "", /^2025-03-14/);
    assert.match(page.content!, /head-of-line blocking/);
    assert.doesNotMatch(page.content!, /All rights reserved|Ten tips for faster builds/);
    assert.ok(page.links!.every((l) => l.url.startsWith("http")), "links are absolute");
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch prints a Markdown report with one section per URL", async () => {
  const web = await startFixtureWeb();
  try {
    const a = `${web.origin}/pages/articles/http3.html`;
    const b = `${web.origin}/pages/articles/http2.html`;
    const run = await runQuarry(["fetch", a, b]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.startsWith(`## ${a}\n`));
    assert.ok(run.stdout.includes(`\n---\n\n## ${b}\n`));
    assert.match(run.stdout, /## Why move away from TCP\?/);
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch --start/--max pages through long content", async () => {
  const web = await startFixtureWeb();
  try {
    const url = `${web.origin}/pages/articles/http3.html`;
    const first = (await runQuarry(["fetch", url, "--format", "text", "--max", "500", "--json"]))
      .json as Env;
    const page = first.results[0]!;
    assert.equal(page.chars, 500);
    assert.equal(page.next_start, 500);
    assert.ok(page.total_chars! > 1500);
    const second = (await runQuarry([
      "fetch",
      url,
      "--format",
      "text",
      "--start",
      "500",
      "--max",
      "100000",
      "--json",
    ])).json as Env;
    const rest = second.results[0]!;
    assert.equal(rest.next_start, null);
    assert.equal(rest.chars, page.total_chars! - 500);
    assert.doesNotMatch(rest.content!, /^#/m, "text format has no Markdown headings");
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch gives every hostile page its status and exits 1 when all fail", async () => {
  const web = await startFixtureWeb();
  try {
    const o = web.origin;
    const urls = [
      `${o}/fault/hang`,
      `${o}/fault/huge`,
      `${o}/fault/loop`,
      `${o}/fault/status/404`,
      `${o}/fault/type/image/png`,
      `${o}/pages/articles/spa.html`,
    ];
    const run = await runQuarry(["fetch", ...urls, "--timeout", "1s", "--json"]);
    assert.equal(run.code, 1, run.stderr);
    const env = run.json as Env;
    assert.equal(env.success, false);
    assert.deepEqual(env.results.map((r) => r.status), [
      "timeout",
      "too_large",
      "http_error",
      "http_error",
      "not_html",
      "empty",
    ]);
    assert.ok(env.results.every((r) => r.reason && r.reason.length > 0), "each has a reason");
    assert.match(env.results[5]!.reason!, /JavaScript/);
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch keeps good pages when others in the batch fail", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry([
      "fetch",
      `${web.origin}/fault/status/500`,
      `${web.origin}/pages/articles/http2.html`,
      "--json",
    ]);
    assert.equal(run.code, 0);
    const env = run.json as Env;
    assert.deepEqual(env.results.map((r) => r.status), ["http_error", "ok"]);
    assert.equal(env.metadata.failed, 1);
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch refuses file:// and credentials with BAD_INPUT and exit 2", async () => {
  for (const bad of ["file:///etc/passwd", "http://user:pw@example.com/", "not a url"]) {
    const run = await runQuarry(["fetch", bad, "--json"]);
    assert.equal(run.code, 2, `${bad}: ${run.stdout}`);
    assert.equal((run.json as Env).error?.code, "BAD_INPUT");
  }
});

Deno.test("quarry fetch never requests a private address unless allowed", async () => {
  const web = await startFixtureWeb();
  try {
    const port = new URL(web.origin).port;
    const spellings = [
      `http://127.0.0.1:${port}/fault/secret`,
      `http://127.1:${port}/fault/secret`,
      `http://0x7f000001:${port}/fault/secret`,
      `http://2130706433:${port}/fault/secret`,
      `http://[::ffff:127.0.0.1]:${port}/fault/secret`,
      `http://localhost:${port}/fault/secret`,
      `http://0177.0.0.1:${port}/fault/secret`,
      `http://[::1]:${port}/fault/secret`,
      `http://0.0.0.0:${port}/fault/secret`,
      `http://foo.localhost:${port}/fault/secret`,
    ];
    const run = await runQuarry(["fetch", ...spellings, "--json"], {
      env: { QUARRY_ALLOW_PRIVATE_NETWORK: "0" },
    });
    assert.equal(run.code, 1);
    const env = run.json as Env;
    assert.deepEqual(env.results.map((r) => r.status), spellings.map(() => "private_address"));
    assert.ok(!web.requests.some((r) => r.includes("secret")), "nothing was requested");
  } finally {
    await web.close();
  }
});

Deno.test("quarry help, version and bad usage exit with 0, 0 and 2", async () => {
  const help = await runQuarry(["fetch", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /--format/);
  const root = await runQuarry(["--help"]);
  assert.equal(root.code, 0, root.stderr);
  for (const command of ["search", "links", "fetch", "archive", "cache", "serve", "mcp"]) {
    assert.match(root.stdout, new RegExp(`\\n  ${command} `), command);
  }
  const version = await runQuarry(["--version"]);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  const unknown = await runQuarry(["fetch", "--no-such-flag", "http://x.test/"]);
  assert.equal(unknown.code, 2);
  const missing = await runQuarry(["fetch"]);
  assert.equal(missing.code, 2);
  const badFormat = await runQuarry(["fetch", "http://x.test/", "--format", "pdf"]);
  assert.equal(badFormat.code, 2);
  assert.doesNotMatch(badFormat.stderr, /at .*\.ts:\d+/, "no stack trace");
});

Deno.test("quarry fetch: --deadline bounds the batch, and the timeout alone is never cut short", async () => {
  const web = await startFixtureWeb();
  try {
    const url = `${web.origin}/fault/delay?ms=1500`;
    const cut = await runQuarry(["fetch", url, "--timeout", "5s", "--deadline", "500ms", "--json"]);
    assert.equal(cut.code, 1, cut.stdout + cut.stderr);
    const page = (cut.json as { results: { status: string; reason: string }[] }).results[0]!;
    assert.equal(page.status, "timeout");
    assert.match(page.reason, /Overall deadline of 500 ms/);
    const whole = await runQuarry(["fetch", url, "--timeout", "5s", "--json"]);
    const arrived = (whole.json as Env).results[0]!;
    assert.notEqual(arrived.status, "timeout", whole.stdout);
    assert.equal(arrived.title, "Delayed page", "the page arrived within its timeout");
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch --format raw returns the body as received, --format html the clean article", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  try {
    const url = `${web.origin}/pages/articles/http3.html`;
    const file = await Deno.readTextFile(
      new URL("../../fixtures/pages/articles/http3.html", import.meta.url),
    );
    const raw = await runQuarry(["fetch", url, "--format", "raw", "--json"], { home });
    assert.equal(raw.code, 0, raw.stderr);
    assert.equal((raw.json as Env).results[0]!.content, file);
    const html = await runQuarry(["fetch", url, "--format", "html", "--json"], { home });
    const article = (html.json as Env).results[0]!.content!;
    assert.match(article, /<(p|h2)[ >]/);
    assert.ok(article.length < file.length, "cleaned: smaller than the page");
    assert.doesNotMatch(article, /<script|<nav|<footer/);
    for (const href of article.matchAll(/href="([^"]+)"/g)) {
      assert.match(href[1]!, /^(https?:|#|mailto:)/, "links are absolute");
    }
    // A JavaScript shell extracts to nothing, but its body is still what raw asks for.
    const shell = await runQuarry(
      ["fetch", `${web.origin}/pages/articles/spa.html`, "--format", "raw", "--json"],
      { home },
    );
    const page = (shell.json as Env).results[0]!;
    assert.equal(page.status, "ok", shell.stdout);
    assert.match(page.content!, /<script/);
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch --robots never requests a page robots.txt disallows for Quarry", async () => {
  const web = await startFixtureWeb();
  try {
    const blocked = `${web.origin}/pages/articles/http2.html`;
    const open = `${web.origin}/pages/articles/link-list.html`;
    const run = await runQuarry(["fetch", blocked, open, "--robots", "--json"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const [first, second] = (run.json as Env).results;
    assert.equal(first!.status, "robots_disallowed");
    assert.match(first!.reason!, /robots\.txt/);
    assert.notEqual(second!.status, "robots_disallowed", "the * group is not Quarry's");
    assert.ok(web.requests.includes("/robots.txt"));
    assert.ok(!web.requests.includes("/pages/articles/http2.html"), web.requests.join(" "));
    const alone = await runQuarry(["fetch", blocked, "--json"], {
      env: { QUARRY_ROBOTS: "1" },
    });
    assert.equal(alone.code, 1);
    const env = alone.json as Env;
    assert.equal(env.results[0]!.status, "robots_disallowed");
    assert.match(env.error!.suggestions.join("\n"), /robots/);
    assert.ok(!web.requests.includes("/pages/articles/http2.html"));
    const without = await runQuarry(["fetch", blocked, "--json"]);
    assert.equal(without.code, 0, "robots.txt is opt-in");
  } finally {
    await web.close();
  }
});
