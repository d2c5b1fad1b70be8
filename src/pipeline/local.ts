/**
 * Answering from the archive: the pages Quarry read before, ranked and
 * excerpted like fresh ones, without the network.
 * @module
 */
import type { Archive } from "../store/archive/archive.ts";
import { articleFromArchive } from "../store/page_memory.ts";
import { rankExcerpts } from "./rank/excerpts.ts";
import { pageRelevance } from "./rank/relevance.ts";
import type { ResearchResult } from "./research.ts";

/** Options of {@linkcode answerFromArchive}. */
export interface LocalOptions {
  /** Pages to return. */
  count: number;
  /** Characters of excerpts for each page. */
  budgetChars: number;
  /** Token budget for each page, when answering in tokens. */
  budgetTokens?: { max: number; count: (text: string) => number };
}

/** Archive hits for the query, excerpted and scored like web results, best first. */
export function answerFromArchive(
  archive: Archive,
  query: string,
  options: LocalOptions,
): ResearchResult[] {
  const { hits } = archive.search(query, { limit: options.count });
  const results: ResearchResult[] = [];
  hits.forEach((hit, i) => {
    const doc = archive.get(hit.id);
    if (!doc) return;
    const article = articleFromArchive(doc);
    const excerpts = rankExcerpts(article.blocks, query, {
      mode: "search",
      title: article.title,
      budgetChars: options.budgetChars,
      ...(options.budgetTokens ? { tokenBudget: options.budgetTokens } : {}),
    });
    if (excerpts.length === 0) return;
    const best = excerpts.reduce((m, e) => Math.max(m, e.score), 0);
    results.push({
      url: doc.url ?? doc.path ?? `quarry://document/${doc.id}`,
      title: doc.title,
      engine: "archive",
      rank: i + 1,
      status: "ok",
      relevance: pageRelevance({
        query,
        url: doc.url ?? doc.path ?? "",
        title: doc.title,
        bestExcerptScore: best,
        engineRank: i + 1,
      }),
      excerpts,
      published: doc.publishedAt,
      archive_id: doc.id,
    });
  });
  return results.sort((a, b) =>
    (b.relevance ?? 0) - (a.relevance ?? 0) || a.url.localeCompare(b.url)
  );
}
