import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { runQuarry, tempHome } from "../support/run_quarry.ts";

interface Page {
  url: string;
  status: string;
  archive_id?: string;
  revalidated?: boolean;
  content?: string;
}
interface Env {
  success: boolean;
  results: Page[];
}

Deno.test("quarry fetch archives what it read and re-fetches unchanged pages with a 304", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  try {
    const url = `${web.origin}/fault/etag`;
    const first = (await runQuarry(["fetch", url, "--json", "--format", "text"], { home }))
      .json as Env;
    const page = first.results[0]!;
    assert.equal(page.status, "ok");
    assert.ok(page.archive_id, "the page got an archive id");
    assert.equal(page.revalidated, undefined);
    const second = (await runQuarry(["fetch", url, "--json", "--format", "text"], { home }))
      .json as Env;
    const again = second.results[0]!;
    assert.equal(again.status, "ok");
    assert.equal(again.revalidated, true, "answered 304 and reused the archive");
    assert.equal(again.archive_id, page.archive_id, "same row, not a duplicate");
    assert.match(again.content!, /HPACK/);
  } finally {
    await web.close();
  }
});

Deno.test("quarry search gives each page it read an archive id, and records the query", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  try {
    const run = await runQuarry(
      ["search", "why does HTTP/3 avoid head-of-line blocking", "--json", "--timeout", "1s"],
      { home, env: { QUARRY_DDG_URL: `${web.origin}/research`, QUARRY_ENGINES: "duckduckgo" } },
    );
    const out = run.json as Env;
    const ok = out.results.filter((r) => r.status === "ok");
    assert.ok(ok.length >= 2, run.stdout);
    assert.ok(ok.every((r) => r.archive_id), "every page read is archived");
    const stats = await runQuarry(["archive", "stats", "--json"], { home });
    const counts = (stats.json as { results: { queries: number }[] }).results[0]!;
    assert.equal(counts.queries, 1, "the search is in the research history");
  } finally {
    await web.close();
  }
});

Deno.test("quarry search --local answers from pages read before, without the network", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  const env = { QUARRY_DDG_URL: `${web.origin}/research`, QUARRY_ENGINES: "duckduckgo" };
  try {
    const query = "why does HTTP/3 avoid head-of-line blocking";
    await runQuarry(["search", query, "--json", "--timeout", "1s"], { home, env });
    const before = web.requests.length;
    const run = await runQuarry(
      ["search", "QUIC lost packet stream ordering", "--local", "--json"],
      {
        home,
        env,
      },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const out = run.json as Env & { metadata: { engine: string } };
    assert.equal(out.metadata.engine, "archive");
    assert.equal(web.requests.length, before, "no request reached the web");
    assert.match(out.results[0]!.url, /http3\.html$/);
    const missing = await runQuarry(["search", "sourdough hydration ratio", "--local", "--json"], {
      home,
      env,
    });
    assert.equal(missing.code, 1);
    assert.equal((missing.json as { error: { code: string } }).error.code, "NOT_FOUND");
  } finally {
    await web.close();
  }
});

Deno.test("quarry search --prefer-archive puts a well-matching archived report ahead of the web", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  const notes = await Deno.makeTempDir({ prefix: "quarry-notes-" });
  try {
    await Deno.writeTextFile(
      `${notes}/quic-report.md`,
      "# Why HTTP/3 avoids head-of-line blocking\n\n" +
        "HTTP/3 avoids head-of-line blocking because QUIC orders each stream on its own. " +
        "A lost packet only delays the stream whose data it carried, while the other streams " +
        "keep flowing to the application. This is the main reason HTTP/3 runs over QUIC.\n",
    );
    const indexed = await runQuarry(["archive", "index", notes, "--source", "research", "--json"], {
      home,
    });
    assert.equal(indexed.code, 0, indexed.stdout + indexed.stderr);
    const run = await runQuarry(
      [
        "search",
        "why does HTTP/3 avoid head-of-line blocking",
        "--prefer-archive",
        "--json",
        "--timeout",
        "1s",
      ],
      { home, env: { QUARRY_DDG_URL: `${web.origin}/research`, QUARRY_ENGINES: "duckduckgo" } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const out = run.json as { results: { url: string; engine?: string; status: string }[] };
    assert.equal(out.results[0]?.engine, "archive");
    assert.match(out.results[0]!.url, /quic-report\.md$/);
    assert.ok(out.results.some((r) => r.engine === "duckduckgo" && r.status === "ok"));
  } finally {
    await web.close();
    await Deno.remove(notes, { recursive: true });
  }
});

Deno.test("quarry search --prefer-archive returns --count pages, the archived report first", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  const notes = await Deno.makeTempDir({ prefix: "quarry-notes-" });
  const env = { QUARRY_DDG_URL: `${web.origin}/research`, QUARRY_ENGINES: "duckduckgo" };
  const query = "why does HTTP/3 avoid head-of-line blocking";
  try {
    await Deno.writeTextFile(
      `${notes}/quic-report.md`,
      "# Why HTTP/3 avoids head-of-line blocking\n\n" +
        "HTTP/3 avoids head-of-line blocking because QUIC orders each stream on its own. " +
        "A lost packet only delays the stream whose data it carried, while the other streams " +
        "keep flowing to the application.\n",
    );
    // Pages read before are in the archive too, and match the question as well as the report.
    await runQuarry(["search", query, "--json", "--timeout", "1s"], { home, env });
    await runQuarry(["archive", "index", notes, "--source", "research"], { home });
    for (const count of [1, 3]) {
      const run = await runQuarry(
        [
          "search",
          query,
          "--prefer-archive",
          "-n",
          String(count),
          "--json",
          "--timeout",
          "1s",
          "--force",
        ],
        { home, env },
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const out = run.json as { results: Page[] & { engine?: string }[] };
      const ok = out.results.filter((r) => r.status === "ok") as (Page & { engine?: string })[];
      assert.equal(ok.length, count, `-n ${count}: ${ok.map((r) => r.url).join(", ")}`);
      assert.match(ok[0]!.url, /quic-report\.md$/, `-n ${count} keeps the report first`);
      assert.equal(ok[0]!.engine, "archive");
    }
  } finally {
    await web.close();
    await Deno.remove(notes, { recursive: true });
  }
});

Deno.test("quarry search --local sees documents indexed after an earlier local answer", async () => {
  const home = await tempHome();
  const notes = await Deno.makeTempDir({ prefix: "quarry-notes-" });
  const query = "how do beavers build dams";
  try {
    await Deno.writeTextFile(
      `${notes}/beavers.md`,
      "# How beavers build dams\n\nBeavers build dams from branches, mud and stones.\n",
    );
    await runQuarry(["archive", "index", notes], { home });
    const first = await runQuarry(["search", query, "--local", "--json"], { home });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal((first.json as Env).results.length, 1);
    await Deno.writeTextFile(
      `${notes}/dams.md`,
      "# Beaver dams\n\nBeavers build dams to raise the water around their lodge.\n",
    );
    await runQuarry(["archive", "index", notes], { home });
    const second = await runQuarry(["search", query, "--local", "--json"], { home });
    const urls = (second.json as Env).results.map((r) => r.url);
    assert.ok(urls.some((u) => u.endsWith("dams.md")), `the new file answers too: ${urls}`);
  } finally {
    await Deno.remove(notes, { recursive: true });
  }
});

Deno.test("quarry fetch reads a page served with an ETag identically twice", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  try {
    const url = `${web.origin}/fault/etag?page=caching`;
    const read = async (format: string) => {
      const run = await runQuarry(["fetch", url, "--json", "--format", format], { home });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      return (run.json as { results: Record<string, unknown>[] }).results[0]!;
    };
    const first = await read("md");
    assert.match(String(first.content), /^## Validators$/m, "Markdown headings");
    assert.match(String(first.content), /^\| ETag \|/m, "a Markdown table");
    assert.match(String(first.content), /^```/m, "a code fence");
    assert.ok((first.links as unknown[]).length >= 3, "links");
    assert.equal(first.site, "Webnotes");
    const second = await read("md");
    assert.equal(second.revalidated, true, "the server answered 304");
    const { revalidated: _, ...same } = second;
    assert.deepEqual(same, first);
    const report = async () => (await runQuarry(["fetch", url], { home })).stdout;
    assert.equal(await report(), await report(), "the Markdown report is the same too");
  } finally {
    await web.close();
  }
});
