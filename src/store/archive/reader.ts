/**
 * The pipeline's {@linkcode ArchiveReader} over the archive: the documents
 * that best match a query, as pages the pipeline can rank.
 * @module
 */
import type { ArchivedPage, ArchiveReader } from "../../pipeline/memory.ts";
import type { Archive } from "./archive.ts";
import { archivedPage } from "./page.ts";

/** Reads archived pages for answers without the network. */
export function archiveReader(archive: Archive): ArchiveReader {
  return {
    search(query, limit) {
      const { hits } = archive.search(query, { limit });
      const pages: ArchivedPage[] = [];
      for (const hit of hits) {
        const doc = archive.get(hit.id);
        if (doc) pages.push(archivedPage(archive, doc));
      }
      return Promise.resolve(pages);
    },
  };
}
