/**
 * Walks the citation graph breadth-first from one document to a depth:
 * what it cites, what cites it, and what resembles it.
 * @module
 */

/** Kinds of edge: a page's link, a report's citation, or implicit similarity. */
export const CITATION_KINDS = ["link", "citation", "similar"] as const;

/** Kind of an edge. */
export type CitationKind = typeof CITATION_KINDS[number];

/** One row of the `citations` table. */
export interface EdgeRow {
  id: number;
  source_id: number;
  target_id: number | null;
  target_url: string | null;
  context: string;
  confidence: number;
  kind: CitationKind;
}

/** Which way to follow edges: what a document cites, what cites it, or both. */
export type WalkDirection = "out" | "in" | "both";

/** Reads the edges touching a set of documents, in the given direction. */
export type EdgeSource = (ids: number[], direction: WalkDirection) => EdgeRow[];

/** How a neighbour relates to the document it was reached from. */
export type Relation = "cites" | "cited_by" | "similar";

/** A neighbour found by the walk. `id` is null for a cited URL not in the archive. */
export interface WalkStep {
  id: number | null;
  url: string | null;
  /** Document it was reached from. */
  from: number;
  relation: Relation;
  kind: CitationKind;
  context: string;
  confidence: number;
  /** 1 for direct neighbours, 2 for theirs… */
  depth: number;
}

/** Limits of a walk. */
export interface WalkOptions {
  direction: WalkDirection;
  /** Most neighbours returned in all. @default {100} */
  maxSteps: number;
}

/** Defaults of {@linkcode WalkOptions}. */
export const DEFAULT_WALK_OPTIONS: WalkOptions = { direction: "both", maxSteps: 100 };

/**
 * Neighbours of `start` to `depth` levels, each document once at the depth it
 * is first reached. A URL outside the archive is listed but not followed.
 */
export function walkGraph(
  start: number,
  depth: number,
  edgesOf: EdgeSource,
  options: WalkOptions = DEFAULT_WALK_OPTIONS,
): WalkStep[] {
  const seen = new Set<number>([start]);
  const seenUrls = new Set<string>();
  const steps: WalkStep[] = [];
  const allowOut = options.direction !== "in";
  const allowIn = options.direction !== "out";
  let frontier = [start];
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const inFrontier = new Set(frontier);
    const next: number[] = [];
    for (const edge of edgesOf(frontier, options.direction)) {
      if (steps.length >= options.maxSteps) return steps;
      const forward = inFrontier.has(edge.source_id);
      let relation: Relation;
      let neighbour: number | null;
      let from: number;
      if (edge.kind === "similar") {
        relation = "similar";
        neighbour = forward ? edge.target_id : edge.source_id;
        from = forward ? edge.source_id : edge.target_id!;
      } else if (forward && allowOut) {
        relation = "cites";
        neighbour = edge.target_id;
        from = edge.source_id;
      } else if (edge.target_id !== null && inFrontier.has(edge.target_id) && allowIn) {
        relation = "cited_by";
        neighbour = edge.source_id;
        from = edge.target_id;
      } else continue;
      if (neighbour === null) {
        if (!edge.target_url || seenUrls.has(edge.target_url)) continue;
        seenUrls.add(edge.target_url);
      } else {
        if (seen.has(neighbour)) continue;
        seen.add(neighbour);
        next.push(neighbour);
      }
      steps.push({
        id: neighbour,
        url: neighbour === null ? edge.target_url : null,
        from,
        relation,
        kind: edge.kind,
        context: edge.context,
        confidence: edge.confidence,
        depth: level,
      });
    }
    frontier = next;
  }
  return steps;
}
