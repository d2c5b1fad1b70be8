import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { runQuarry, tempHome } from "../support/run_quarry.ts";

const FIXTURES = new URL("../../fixtures/archive/notes/", import.meta.url).pathname;

interface Hit {
  id: string;
  title: string;
  url: string | null;
  path: string | null;
  source: string;
  snippets: Record<string, string>;
  cites?: { url: string | null; id: string | null; context: string }[];
  cited_by?: { id: string | null }[];
}
interface Env<R> {
  success: boolean;
  results: R[];
  error?: { code: string };
  metadata: Record<string, unknown>;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

Deno.test("quarry archive index, then search, related and export from the CLI", async () => {
  const home = await tempHome();
  const notes = `${home}/notes`;
  try {
    await copyTree(FIXTURES, notes);
    const indexed = await runQuarry(["archive", "index", notes, "--json"], { home });
    assert.equal(indexed.code, 0, indexed.stderr);
    const counts = (indexed.json as Env<Record<string, number>>).results[0]!;
    assert.equal(counts.added, 4);
    assert.equal(counts.documents, 5);

    const searched = await runQuarry(
      ["archive", "search", "otter tools", "--json", "--citations"],
      { home },
    );
    assert.equal(searched.code, 0, searched.stderr);
    const env = searched.json as Env<Hit>;
    assert.equal(env.success, true);
    const titles = env.results.map((h) => h.title);
    assert.deepEqual(titles.slice(0, 2).sort(), [
      "Otter survey notes",
      "Sea otters and their tools",
    ]);
    const report = env.results.find((h) => h.title === "Sea otters and their tools")!;
    assert.match(report.snippets.title!, /\*\*otters\*\*/);
    // The report cites the saved survey page, which is archived: the link resolved.
    assert.ok(report.cites!.some((c) => c.url === "https://wildlife.example/otter-survey" && c.id));
    assert.ok(report.cites!.some((c) => c.context.includes("crack shellfish")));
    assert.equal(env.metadata.total, 2);

    const files = await runQuarry(["archive", "search", "--source", "file", "--json"], { home });
    assert.equal(files.code, 0, files.stderr);
    const listed = (files.json as Env<Hit>).results;
    assert.ok(listed.length >= 1, files.stdout);
    assert.ok(listed.every((h) => h.source === "file" && h.path), files.stdout);

    const hostile = await runQuarry([
      "archive",
      "search",
      `NEAR( "*'; DROP TABLE documents; --`,
      "--json",
    ], { home });
    assert.equal(hostile.code, 0, hostile.stderr);
    assert.equal((hostile.json as Env<Hit>).success, true);

    const related = await runQuarry(["archive", "related", report.id, "--depth", "2", "--json"], {
      home,
    });
    assert.equal(related.code, 0, related.stderr);
    const rel = (related.json as Env<{ url: string | null; relation: string }>).results;
    assert.ok(
      rel.some((r) => r.url === "https://journals.example/kelp-urchins" && r.relation === "cites"),
    );

    const exported = await runQuarry(["archive", "export", "--format", "graphml"], { home });
    assert.equal(exported.code, 0, exported.stderr);
    const xml = new DOMParser().parseFromString(exported.stdout, "text/xml");
    assert.equal(xml.querySelectorAll("node").length, 5);
    assert.ok(xml.querySelectorAll("edge").length >= 1);

    await Deno.remove(`${notes}/volcano.html`);
    const again = await runQuarry(["archive", "index", notes], { home });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 added, 0 updated, 1 removed, 3 unchanged/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
