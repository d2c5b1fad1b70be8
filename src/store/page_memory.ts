/**
 * Reading pages with memory: every page read goes into the archive, and a
 * page read before is re-fetched conditionally (If-None-Match /
 * If-Modified-Since); on 304 its archived text is reused.
 * @module
 */
import type { OpContext } from "../ops/types.ts";
import type { FetchOptions } from "../pipeline/fetch.ts";
import { blocksFromMarkdown } from "../pipeline/extract/markdown_blocks.ts";
import { extractAll, type PageRead } from "../pipeline/read.ts";
import { renderAll, type RenderMode } from "../pipeline/render_step.ts";
import { fetchAll } from "../pipeline/fetch.ts";
import type { Article, FetchResult } from "../pipeline/types.ts";
import type { Archive } from "./archive/archive.ts";
import { archivePage } from "./archive/page.ts";
import type { ArchivedDocument } from "./archive/types.ts";
import { hasValidators, kvPages, type PageRecord, type PageStore } from "./kv/pages.ts";

/** An article rebuilt from an archived document. */
export function articleFromArchive(doc: ArchivedDocument): Article {
  const meta = doc.metadata as { site_name?: string; excerpt?: string };
  return {
    title: doc.title,
    byline: doc.byline,
    site: doc.site ?? meta.site_name ?? null,
    lang: doc.lang,
    published: doc.publishedAt,
    excerpt: meta.excerpt ?? null,
    text: doc.content,
    markdown: doc.content,
    blocks: blocksFromMarkdown(doc.content),
    links: [],
  };
}

function fromArchive(result: FetchResult, doc: ArchivedDocument): PageRead {
  return {
    fetch: { ...result, status: "ok" },
    extracted: { status: "ok", extractor: "text", article: articleFromArchive(doc) },
    status: "ok",
    archiveId: doc.id,
    revalidated: true,
  };
}

function archiveOne(
  archive: Archive,
  page: PageRead,
  query: string | undefined,
  now: number,
): string | undefined {
  if (!page.extracted || page.status !== "ok") return undefined;
  return archivePage(archive, {
    url: page.fetch.url,
    finalUrl: page.fetch.finalUrl,
    article: page.extracted.article,
    ...(query === undefined ? {} : { query }),
    fetchedAt: new Date(now).toISOString(),
  });
}

/**
 * Fetches, extracts and archives pages. Store failures never fail a page:
 * they are reported through `ctx.progress` and the page is returned as read.
 */
export async function readRemembered(
  ctx: OpContext,
  urls: string[],
  options: Partial<FetchOptions> & { render?: RenderMode },
  query?: string,
): Promise<PageRead[]> {
  let records = new Map<string, PageRecord>();
  let archive: Archive | undefined;
  let pageStore: PageStore | undefined;
  try {
    archive = await ctx.stores.archive();
    pageStore = kvPages(await ctx.stores.kv());
    records = await pageStore.getMany(urls);
  } catch (error) {
    ctx.progress(`archive unavailable: ${error instanceof Error ? error.message : error}`);
  }
  const validators = Object.fromEntries(
    [...records].filter(([, r]) => hasValidators(r.validators)).map(([u, r]) => [u, r.validators]),
  );
  const results = await fetchAll(urls, { ...options, validators }, ctx);
  // The archived copy behind each 304, read once.
  const unchanged = new Map<string, ArchivedDocument>();
  for (const r of results) {
    const id = records.get(r.url)?.archiveId;
    const doc = r.status === "not_modified" && id !== undefined ? archive?.get(id) : undefined;
    if (doc) unchanged.set(r.url, doc);
  }
  // A 304 for a page whose archived copy is gone: ask again without validators.
  const lost = results.filter((r) => r.status === "not_modified" && !unchanged.has(r.url));
  const again = lost.length > 0 ? await fetchAll(lost.map((r) => r.url), options, ctx) : [];
  const final = results.map((first) => again.find((r) => r.url === first.url) ?? first);
  const extracted = await renderAll(await extractAll(final, ctx), {
    mode: options.render ?? "auto",
    renderer: ctx.browser,
    extract: ctx.extract,
    signal: ctx.signal,
  });
  const pages: PageRead[] = [];
  for (const [i, result] of final.entries()) {
    const doc = unchanged.get(result.url);
    if (doc) {
      pages.push(fromArchive(result, doc));
      continue;
    }
    const page = extracted[i]!;
    if (archive) {
      try {
        const id = archiveOne(archive, page, query, ctx.now());
        if (id !== undefined) {
          page.archiveId = id;
          if (pageStore && hasValidators(result.validators)) {
            await pageStore.set(result.url, {
              archiveId: id,
              validators: result.validators,
              fetchedAt: new Date(ctx.now()).toISOString(),
            });
          }
        }
      } catch (error) {
        ctx.progress(
          `could not archive ${result.url}: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
    pages.push(page);
  }
  return pages;
}
