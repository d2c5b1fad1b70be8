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

Deno.test("quarry search gives each page it read an archive id", async () => {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(
      ["search", "why does HTTP/3 avoid head-of-line blocking", "--json", "--timeout", "1s"],
      { env: { QUARRY_DDG_URL: `${web.origin}/research`, QUARRY_ENGINES: "duckduckgo" } },
    );
    const out = run.json as Env;
    const ok = out.results.filter((r) => r.status === "ok");
    assert.ok(ok.length >= 2, run.stdout);
    assert.ok(ok.every((r) => r.archive_id), "every page read is archived");
  } finally {
    await web.close();
  }
});
