import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { startQuarryServer } from "../support/quarry_server.ts";
import { runQuarry, tempHome } from "../support/run_quarry.ts";

interface Excerpt {
  text: string;
  heading: string[];
  page?: number;
}
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
  next_start?: number | null;
  total_chars?: number;
  excerpts?: Excerpt[];
  archive_id?: string;
}
interface Env {
  success: boolean;
  results: Page[];
  metadata: Record<string, unknown> & { dropped?: { url: string; status: string }[] };
}

Deno.test("quarry fetch reads a PDF: text without furniture, metadata, links, paging", async () => {
  const web = await startFixtureWeb();
  try {
    const url = `${web.origin}/pdf/gen/report.pdf`;
    const run = await runQuarry(["fetch", url, "--json", "--format", "text"]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const page = (run.json as Env).results[0]!;
    assert.equal(page.status, "ok");
    assert.equal(page.title, "Tidal Energy Field Report");
    assert.equal(page.byline, "Ada Marsh");
    assert.equal(page.site, "127.0.0.1");
    assert.equal(page.lang, "en-GB");
    assert.match(page.published ?? "", /^2024-01-02/);
    assert.match(page.content!, /Each measurement was taken/);
    assert.doesNotMatch(page.content!, /Annual Review|Page \d of 4/);
    assert.deepEqual(page.links?.map((l) => l.url), ["https://data.example.org/tidal"]);
    assert.ok(page.archive_id, "archived");

    const window = await runQuarry(["fetch", url, "--json", "--start", "0", "--max", "60"]);
    const first = (window.json as Env).results[0]!;
    assert.equal(first.content?.length, 60);
    assert.equal(first.next_start, 60);
    assert.ok(first.total_chars! > 300);
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch --query cites the page of each excerpt of a PDF", async () => {
  const web = await startFixtureWeb();
  try {
    const url = `${web.origin}/pdf/report.pdf`;
    const query = "did the seals collide with the rotor";
    const json = await runQuarry(["fetch", url, "--query", query, "--json", "--budget", "300"]);
    assert.equal(json.code, 0, json.stderr + json.stdout);
    const excerpts = (json.json as Env).results[0]!.excerpts!;
    const best = excerpts.find((e) => /collision/.test(e.text));
    assert.equal(best?.page, 2, JSON.stringify(excerpts));
    const md = await runQuarry(["fetch", url, "--query", query, "--budget", "300"]);
    assert.match(md.stdout, /No collision was recorded[^\n]*_\(p\. 2\)_/);
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch gives encrypted, corrupt and scanned PDFs a status and reason", async () => {
  const web = await startFixtureWeb();
  try {
    const urls = ["encrypted", "corrupt", "scanned"].map((k) => `${web.origin}/pdf/gen/${k}.pdf`);
    const run = await runQuarry(["fetch", ...urls, "--json"]);
    assert.equal(run.code, 1, "nothing could be read");
    const pages = (run.json as Env).results;
    assert.deepEqual(pages.map((p) => [p.status, p.reason]), [
      ["unreadable", "encrypted PDF"],
      ["unreadable", "corrupt PDF: Invalid PDF structure."],
      ["empty", "no text layer (scanned pages?)"],
    ]);
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch reads a PDF served as octet-stream or untyped, and applies both PDF caps", async () => {
  const web = await startFixtureWeb();
  try {
    const typed = await runQuarry([
      "fetch",
      `${web.origin}/pdf/as-octet-stream`,
      `${web.origin}/pdf/untyped`,
      `${web.origin}/pdf/gen/long.pdf`,
      "--json",
    ], { env: { QUARRY_PDF_MAX_PAGES: "10" } });
    const [octet, untyped, long] = (typed.json as Env).results;
    assert.equal(octet?.title, "Tidal Energy Field Report");
    assert.equal(untyped?.title, "Tidal Energy Field Report");
    assert.equal(long?.status, "ok");
    assert.equal(long?.reason, "read the first 10 of 40 pages (page cap 10)");
    const capped = await runQuarry(["fetch", `${web.origin}/pdf/report.pdf`, "--json"], {
      env: { QUARRY_PDF_MAX_BYTES: "4KB" },
    });
    const page = (capped.json as Env).results[0]!;
    assert.equal(page.status, "too_large");
    assert.match(page.reason ?? "", /over the 0 MB PDF cap|PDF cap/);
  } finally {
    await web.close();
  }
});

Deno.test("quarry search reads, ranks and archives PDFs among pages; filetype:pdf keeps only PDFs", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  const env = { QUARRY_DDG_URL: `${web.origin}/pdfsearch`, QUARRY_ENGINES: "duckduckgo" };
  try {
    const run = await runQuarry(
      [
        "search",
        "tidal turbine seals capacity factor",
        "--json",
        "--diagnostics",
        "--timeout",
        "3s",
      ],
      { env, home },
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const results = (run.json as Env).results;
    const pdf = results.find((r) => r.url.endsWith("/pdf/gen/report.pdf"));
    assert.equal(pdf?.status, "ok", JSON.stringify(results));
    assert.ok(pdf.excerpts!.length > 0);
    assert.ok(pdf.excerpts!.every((e) => typeof e.page === "number"));
    assert.ok(pdf.archive_id);

    const archived = await runQuarry([
      "archive",
      "search",
      "capacity factor",
      "--type",
      "pdf",
      "--json",
    ], {
      home,
    });
    const hits = (archived.json as Env).results as unknown as { url: string; type: string }[];
    assert.ok(hits.length >= 1, archived.stdout);
    assert.ok(hits.every((h) => h.type === "pdf"));
    const related = await runQuarry(["archive", "related", pdf.archive_id!, "--json"], { home });
    assert.match(related.stdout, /data\.example\.org\/tidal/, "links in the PDF enter the graph");

    const only = await runQuarry(
      ["search", "tidal seals filetype:pdf", "--json", "--diagnostics", "--timeout", "3s", "-f"],
      { env, home: await tempHome() },
    );
    const onlyResults = (only.json as Env).results;
    assert.ok(onlyResults.length >= 1, only.stdout);
    assert.ok(onlyResults.every((r) => r.url.endsWith(".pdf")), JSON.stringify(onlyResults));
  } finally {
    await web.close();
  }
});

Deno.test("quarry fetch --query of an unchanged PDF (HTTP 304) still cites pages from the archive", async () => {
  const web = await startFixtureWeb();
  const home = await tempHome();
  try {
    const url = `${web.origin}/pdf/etag/report.pdf`;
    const query = "did the seals collide with the rotor";
    const args = ["fetch", url, "--query", query, "--json", "--budget", "200"];
    const first = await runQuarry(args, { home });
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const again = await runQuarry(args, { home });
    const page = (again.json as Env).results[0]! as Page & { revalidated?: boolean };
    assert.equal(page.revalidated, true);
    const best = page.excerpts?.find((e) => /Seals changed course/.test(e.text));
    assert.equal(best?.page, 3, JSON.stringify(page.excerpts));
  } finally {
    await web.close();
  }
});

Deno.test("quarry serve reads a PDF in its extraction workers, with the same answer as the CLI", async () => {
  const web = await startFixtureWeb();
  const server = await startQuarryServer();
  try {
    const url = `${web.origin}/pdf/gen/report.pdf`;
    const res = await fetch(
      `${server.origin}/fetch?url=${encodeURIComponent(url)}&query=${
        encodeURIComponent("seals rotor")
      }&budget=200`,
    );
    const body = await res.json() as Env;
    assert.equal(res.status, 200, JSON.stringify(body));
    const page = body.results[0]!;
    assert.equal(page.title, "Tidal Energy Field Report");
    assert.equal(page.excerpts?.find((e) => /Seals changed course/.test(e.text))?.page, 3);
  } finally {
    await server.close();
    await web.close();
  }
});
