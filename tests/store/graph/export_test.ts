import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { type Graph, toDot, toGraphML } from "../../../src/store/graph/export.ts";
import { tempArchive, webDoc } from "../archive/helpers.ts";

/** Characters XML 1.0 cannot hold, which the export must drop. */
const INVALID = ["\u0001", "\uD800"];
const NASTY = `Fish & "chips" <b>bold</b> 'quote' \\ back\nslash \u0001 ctrl \uD800 lone`;

const GRAPH: Graph = {
  nodes: [
    { id: "d1", label: NASTY, url: "https://a.org/?x=1&y=2", kind: "document", source: "web" },
    { id: "d2", label: "Plain", url: null, kind: "document", source: "file" },
    { id: "u1", label: "https://c.org/", url: "https://c.org/", kind: "url" },
  ],
  edges: [
    { source: "d1", target: "d2", kind: "citation", confidence: 1, context: NASTY },
    { source: "d2", target: "u1", kind: "link", confidence: 1, context: "" },
    { source: "d1", target: "d2", kind: "similar", confidence: 0.8, context: "80%" },
  ],
};

Deno.test("toGraphML() writes well-formed XML that keeps every label", () => {
  const xml = toGraphML(GRAPH);
  assert.ok(!INVALID.some((c) => xml.includes(c)), "invalid XML characters are dropped");
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const nodes = [...doc.querySelectorAll("node")];
  const edges = [...doc.querySelectorAll("edge")];
  assert.deepEqual(nodes.map((n) => n.getAttribute("id")), ["d1", "d2", "u1"]);
  assert.equal(edges.length, 3);
  assert.deepEqual(edges.map((e) => [e.getAttribute("source"), e.getAttribute("target")]), [
    ["d1", "d2"],
    ["d2", "u1"],
    ["d1", "d2"],
  ]);
  const label = nodes[0]!.querySelector('data[key="n_label"]')!.textContent;
  assert.equal(label, INVALID.reduce((text, c) => text.replace(c, ""), NASTY));
  const keys = [...doc.querySelectorAll("key")].map((k) => k.getAttribute("id"));
  for (const data of doc.querySelectorAll("data")) {
    assert.ok(keys.includes(data.getAttribute("key")));
  }
  assert.equal(doc.querySelector("graph")!.getAttribute("edgedefault"), "directed");
});

/** Splits DOT into statements, honouring quoted strings and escapes. */
function dotStatements(dot: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  let depth = 0;
  for (let i = 0; i < dot.length; i++) {
    const c = dot[i]!;
    if (quoted) {
      if (c === "\\") {
        current += c + dot[++i];
        continue;
      }
      if (c === '"') quoted = false;
      if (c === "\n") throw new Error("raw newline inside a DOT string");
    } else if (c === '"') quoted = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    if (depth < 0) throw new Error("unbalanced brackets");
    current += c;
    if (!quoted && c === ";" && depth <= 1) {
      out.push(current.trim());
      current = "";
    }
  }
  assert.equal(quoted, false, "every string is closed");
  assert.equal(depth, 0, "brackets are balanced");
  return out;
}

Deno.test("toDot() quotes and escapes every identifier and label", () => {
  const dot = toDot(GRAPH);
  assert.match(dot, /^digraph quarry \{/);
  const statements = dotStatements(dot);
  assert.equal(statements.filter((s) => s.includes("->")).length, 3);
  assert.ok(dot.includes('\\"chips\\"'));
  assert.ok(dot.includes("\\\\ back\\nslash"));
});

Deno.test("exportGraph() exports archived documents and their citations", async () => {
  const t = await tempArchive();
  try {
    const [a, b] = t.archive.upsertDocuments([
      webDoc("https://a.org/", NASTY, "one"),
      webDoc("https://b.org/", "B", "two"),
    ]);
    t.archive.addCitations([
      {
        sourceId: a!.id,
        targetUrl: "https://b.org/",
        context: "see B",
        confidence: 1,
        kind: "citation",
      },
      {
        sourceId: a!.id,
        targetUrl: "https://elsewhere.org/",
        context: "",
        confidence: 1,
        kind: "link",
      },
    ]);
    const json = JSON.parse(t.archive.exportGraph("json")) as Graph;
    assert.equal(json.nodes.length, 2);
    assert.deepEqual(json.edges.map((e) => [e.source, e.target]), [[`d${a!.id}`, `d${b!.id}`]]);
    const wide = JSON.parse(t.archive.exportGraph("json", { external: true })) as Graph;
    assert.equal(wide.nodes.length, 3);
    const doc = new DOMParser().parseFromString(t.archive.exportGraph("graphml"), "text/xml");
    assert.equal(doc.querySelectorAll("edge").length, 1);
    dotStatements(t.archive.exportGraph("dot", { external: true }));
  } finally {
    await t.close();
  }
});
