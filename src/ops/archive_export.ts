/**
 * `quarry archive export --format json|graphml|dot`: the citation graph for
 * Gephi, yEd, NetworkX or Graphviz.
 * @module
 */
import { z } from "zod";
import type { Envelope } from "../envelope.ts";
import { GRAPH_FORMATS } from "../store/graph/export.ts";
import { defineOp } from "./types.ts";

const input = z.object({
  format: z.enum(GRAPH_FORMATS).default("json").describe("Graph format: json, graphml or dot"),
  external: z.boolean().default(false).describe(
    "Also include cited URLs that are not archived, as nodes",
  ),
  noLinks: z.boolean().default(false).describe(
    "Leave out plain page links; keep citations and similarity",
  ),
});

/** The exported graph in the envelope. */
export interface GraphExport {
  format: string;
  nodes: number;
  edges: number;
  /** The graph as text in the format. */
  content: string;
}

/** The `archive_export` operation. */
export const archiveExportOp = defineOp({
  name: "archive_export",
  command: ["archive", "export"],
  summary: "Export the citation graph as JSON, GraphML or DOT",
  description:
    "Export the archive's citation graph: documents as nodes, citations, links and similarity " +
    "as directed edges with their kind, confidence and context. GraphML and DOT open in " +
    "standard graph tools.",
  input,
  http: { method: "GET", path: "/archive/graph" },
  async run(ctx, args): Promise<Envelope<GraphExport>> {
    const archive = await ctx.stores.archive();
    const options = { external: args.external, links: !args.noLinks };
    const json = JSON.parse(archive.exportGraph("json", options)) as {
      nodes: unknown[];
      edges: unknown[];
    };
    const content = args.format === "json"
      ? JSON.stringify(json, null, 2)
      : archive.exportGraph(args.format, options);
    return {
      success: true,
      command: "archive_export",
      results: [{
        format: args.format,
        nodes: json.nodes.length,
        edges: json.edges.length,
        content,
      }],
      metadata: { nodes: json.nodes.length, edges: json.edges.length },
    };
  },
  render(envelope) {
    const graph = (envelope.results as GraphExport[] | undefined)?.[0];
    return graph ? `${graph.content.trimEnd()}\n` : "";
  },
});
