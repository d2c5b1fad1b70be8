/**
 * The stores an operation may use, opened lazily and at most once per
 * process, so a command that needs no store opens none (nor loads the
 * SQLite and KV code).
 * @module
 */
import type { Config } from "../config.ts";
import type { Archive } from "./archive/archive.ts";

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
      kv ??= import("./kv/kv.ts").then((m) => m.openKv(config));
      return kv;
    },
    archive() {
      archive ??= import("./archive/open.ts").then((m) => m.openArchive(config));
      return archive;
    },
    async close() {
      if (kv) (await kv.catch(() => undefined))?.close();
      if (archive) (await archive.catch(() => undefined))?.close();
    },
  };
}
