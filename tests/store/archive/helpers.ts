/**
 * Helpers for archive tests: a real archive file in a temporary folder.
 * @module
 */
import { Archive, type DocumentInput } from "../../../src/store/archive/archive.ts";

/** A fresh archive in a temporary folder, removed by `close()`. */
export interface TempArchive {
  archive: Archive;
  dir: string;
  path: string;
  close(): Promise<void>;
}

/** Opens a fresh archive file in a new temporary folder. */
export async function tempArchive(): Promise<TempArchive> {
  const dir = await Deno.makeTempDir({ prefix: "quarry_archive_" });
  const path = `${dir}/archive.db`;
  const archive = Archive.open(path);
  return {
    archive,
    dir,
    path,
    async close() {
      archive.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A web document with sensible defaults. */
export function webDoc(
  url: string,
  title: string,
  content: string,
  extra: Partial<DocumentInput> = {},
): DocumentInput {
  return {
    url,
    title,
    content,
    fetchedAt: "2025-01-15T10:00:00.000Z",
    source: "web",
    type: "html",
    ...extra,
  };
}
