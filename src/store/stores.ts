/**
 * The stores an operation may use, opened lazily and at most once per
 * process, so a command that needs no store opens none.
 * @module
 */
import type { Config } from "../config.ts";
import { openKv } from "./kv/kv.ts";
import type { Archive } from "./archive/archive.ts";
import { openArchive } from "./archive/open.ts";

/** Lazily opened stores shared by every operation of one process. */
export interface Stores {
  kv(): Promise<Deno.Kv>;
  /** The SQLite archive (`archive.db` under the data directory). */
  archive(): Promise<Archive>;
  close(): Promise<void>;
}

/** Opens stores from a Config on first use. */
export function storesFor(config: Config): Stores {
  let kv: Promise<Deno.Kv> | undefined;
  let archive: Promise<Archive> | undefined;
  return {
    kv() {
      kv ??= openKv(config);
      return kv;
    },
    archive() {
      archive ??= openArchive(config);
      return archive;
    },
    async close() {
      if (kv) (await kv.catch(() => undefined))?.close();
      if (archive) (await archive.catch(() => undefined))?.close();
    },
  };
}
