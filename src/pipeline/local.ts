/**
 * Answering from the archive: the pages Quarry read before, ranked and
 * excerpted like fresh ones, without the network.
 * @module
 */
import { type ArchiveReader, articleFromArchived } from "./memory.ts";
import { bestScore, excerptsFor, type PageBudget } from "./rank/excerpts_for.ts";
import { pageRelevance } from "./rank/relevance.ts";
import type { ResearchResult } from "./research.ts";

/** Options of {@linkcode answerFromArchive}. */
export interface LocalOptions {
  /** Pages to return. */
  count: number;
  /** What each page may take. */
  budget: PageBudget;
}

/** Archive hits for the query, excerpted and scored like web results, best first. */
export async function answerFromArchive(
  archive: ArchiveReader,
  query: string,
  options: LocalOptions,
): Promise<ResearchResult[]> {
  const pages = await archive.search(query, options.count);
  const results: ResearchResult[] = [];
  pages.forEach((page, i) => {
    const article = articleFromArchived(page);
    const excerpts = excerptsFor(article, query, options.budget, "search");
    if (excerpts.length === 0) return;
    const url = page.url ?? page.path ?? `quarry://document/${page.id}`;
    results.push({
      url,
      title: page.title,
      engine: "archive",
      rank: i + 1,
      status: "ok",
      relevance: pageRelevance({
        query,
        url: page.url ?? page.path ?? "",
        title: page.title,
        bestExcerptScore: bestScore(excerpts),
        engineRank: i + 1,
      }),
      excerpts,
      published: page.published,
      archive_id: page.id,
    });
  });
  return results.sort((a, b) =>
    (b.relevance ?? 0) - (a.relevance ?? 0) || a.url.localeCompare(b.url)
  );
}
