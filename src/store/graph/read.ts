/**
 * Reads the citation graph out of the archive for export.
 * @module
 */
import type { Sql } from "../archive/sql.ts";
import type { ExportOptions } from "../archive/types.ts";
import type { Graph, GraphEdge, GraphNode } from "./export.ts";
import type { EdgeRow } from "./walk.ts";

/** Every document as a node and every citation between nodes as an edge. */
export function buildGraph(sql: Sql, options: ExportOptions = {}): Graph {
  const external = options.external ?? false;
  const links = options.links ?? true;
  const nodes: GraphNode[] = sql.all<
    {
      id: number;
      title: string;
      url: string | null;
      source: string;
      site: string | null;
      path: string | null;
    }
  >("SELECT id, title, url, source, site, path FROM documents ORDER BY id").map((d) => ({
    id: `d${d.id}`,
    label: d.title || d.url || d.path || `document ${d.id}`,
    url: d.url,
    kind: "document",
    source: d.source,
    site: d.site,
  }));
  const rows = sql.all<EdgeRow>(
    `SELECT * FROM citations WHERE (target_id IS NOT NULL OR ?) AND (kind <> 'link' OR ?)
       ORDER BY source_id, id`,
    external ? 1 : 0,
    links ? 1 : 0,
  );
  const urlNodes = new Map<string, string>();
  const edges: GraphEdge[] = [];
  for (const row of rows) {
    let target: string;
    if (row.target_id !== null) target = `d${row.target_id}`;
    else if (row.target_url) {
      target = urlNodes.get(row.target_url) ?? `u${urlNodes.size + 1}`;
      if (!urlNodes.has(row.target_url)) {
        urlNodes.set(row.target_url, target);
        nodes.push({ id: target, label: row.target_url, url: row.target_url, kind: "url" });
      }
    } else continue;
    edges.push({
      source: `d${row.source_id}`,
      target,
      kind: row.kind,
      confidence: row.confidence,
      context: row.context,
    });
  }
  return { nodes, edges };
}
