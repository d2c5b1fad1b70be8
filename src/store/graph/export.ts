/**
 * Exports the citation graph as JSON, GraphML or DOT, escaped so that
 * standard tools (Gephi, yEd, NetworkX, Graphviz) read any title or URL.
 * @module
 */
import type { CitationKind } from "./walk.ts";

/** A node: an archived document, or a cited URL outside the archive. */
export interface GraphNode {
  /** `d<id>` for a document, `u<n>` for an outside URL. */
  id: string;
  label: string;
  url: string | null;
  kind: "document" | "url";
  source?: string;
  site?: string | null;
}

/** A directed edge from the citing node to the cited one. */
export interface GraphEdge {
  source: string;
  target: string;
  kind: CitationKind;
  confidence: number;
  context: string;
}

/** A whole graph. */
export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** Formats the graph exports to. */
export const GRAPH_FORMATS = ["json", "graphml", "dot"] as const;

/** A graph export format. */
export type GraphFormat = typeof GRAPH_FORMATS[number];

/** Characters XML 1.0 forbids (controls but tab/newline/return, lone surrogates, U+FFFE/F). */
const XML_INVALID =
  // deno-lint-ignore no-control-regex -- these are exactly the characters to remove
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_SPECIAL = /[&<>"']/g;
const XML_ENTITY: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
// deno-lint-ignore no-control-regex -- control characters are what this removes
const DOT_CONTROL = /[\u0000-\u001F\u007F]/g;

function xml(text: string): string {
  return text.replace(XML_INVALID, "").replace(XML_SPECIAL, (c) => XML_ENTITY[c]!);
}

/** A DOT double-quoted string: backslashes and quotes escaped, line breaks as `\n`. */
function dot(text: string): string {
  const escaped = text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r?\n/g, "\\n")
    .replace(DOT_CONTROL, " ");
  return `"${escaped}"`;
}

const NODE_KEYS = ["label", "url", "kind", "source", "site"] as const;
const EDGE_KEYS = [["kind", "string"], ["confidence", "double"], ["context", "string"]] as const;

/** The graph as GraphML (directed), one `<data>` per attribute. */
export function toGraphML(graph: Graph): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"' +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
    ' xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns' +
    ' http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    ...NODE_KEYS.map((k) => `  <key id="n_${k}" for="node" attr.name="${k}" attr.type="string"/>`),
    ...EDGE_KEYS.map(([k, type]) =>
      `  <key id="e_${k}" for="edge" attr.name="${k}" attr.type="${type}"/>`
    ),
    '  <graph id="quarry" edgedefault="directed">',
  ];
  for (const node of graph.nodes) {
    lines.push(`    <node id="${xml(node.id)}">`);
    for (const key of NODE_KEYS) {
      const value = node[key];
      if (value !== undefined && value !== null) {
        lines.push(`      <data key="n_${key}">${xml(String(value))}</data>`);
      }
    }
    lines.push("    </node>");
  }
  graph.edges.forEach((edge, i) => {
    lines.push(
      `    <edge id="e${i}" source="${xml(edge.source)}" target="${xml(edge.target)}">`,
      `      <data key="e_kind">${edge.kind}</data>`,
      `      <data key="e_confidence">${edge.confidence}</data>`,
      `      <data key="e_context">${xml(edge.context)}</data>`,
      "    </edge>",
    );
  });
  lines.push("  </graph>", "</graphml>", "");
  return lines.join("\n");
}

/** The graph in Graphviz DOT, every identifier and attribute quoted. */
export function toDot(graph: Graph): string {
  const lines = ["digraph quarry {", "  node [shape=box];"];
  for (const node of graph.nodes) {
    const attrs = [`label=${dot(node.label)}`];
    if (node.url) attrs.push(`URL=${dot(node.url)}`);
    if (node.kind === "url") attrs.push("style=dashed");
    lines.push(`  ${dot(node.id)} [${attrs.join(", ")}];`);
  }
  for (const edge of graph.edges) {
    const style = edge.kind === "similar" ? ", style=dotted, dir=none" : "";
    lines.push(
      `  ${dot(edge.source)} -> ${dot(edge.target)} [label=${
        dot(edge.kind)
      }, confidence=${edge.confidence}${style}];`,
    );
  }
  lines.push("}", "");
  return lines.join("\n");
}

/** The graph in the given format, as text. */
export function formatGraph(graph: Graph, format: GraphFormat): string {
  if (format === "graphml") return toGraphML(graph);
  if (format === "dot") return toDot(graph);
  return JSON.stringify(graph, null, 2);
}
