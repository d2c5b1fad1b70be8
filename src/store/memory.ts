/**
 * The pipeline's {@linkcode PageMemory} over the stores: validators and the
 * archive id of each page in KV (`["page", …]`), the page itself in the
 * archive. Stores are opened on first use.
 * @module
 */
import type { PageMemory } from "../pipeline/memory.ts";
import { archivedPage, archivePage } from "./archive/page.ts";
import { hasValidators, kvPages, type PageStore } from "./kv/pages.ts";
import type { Stores } from "./stores.ts";

/** Page memory over the KV store and the archive of `stores`. */
export function pageMemory(stores: Stores): PageMemory {
  let pages: Promise<PageStore> | undefined;
  const pageStore = () => pages ??= stores.kv().then(kvPages);
  return {
    async validators(urls) {
      const records = await (await pageStore()).getMany(urls);
      return new Map(
        [...records].filter(([, r]) => hasValidators(r.validators)).map((
          [url, r],
        ) => [url, r.validators]),
      );
    },
    async archived(url) {
      const record = (await (await pageStore()).getMany([url])).get(url);
      if (!record) return undefined;
      const archive = await stores.archive();
      const doc = archive.get(record.archiveId);
      return doc ? archivedPage(archive, doc) : undefined;
    },
    async remember(page) {
      const archive = await stores.archive();
      const id = archivePage(archive, {
        url: page.url,
        finalUrl: page.finalUrl,
        article: page.article,
        ...(page.type === undefined ? {} : { type: page.type }),
        ...(page.query === undefined ? {} : { query: page.query }),
        fetchedAt: page.fetchedAt,
      });
      if (hasValidators(page.validators)) {
        await (await pageStore()).set(page.url, {
          archiveId: id,
          validators: page.validators,
          fetchedAt: page.fetchedAt,
        });
      }
      return id;
    },
  };
}
