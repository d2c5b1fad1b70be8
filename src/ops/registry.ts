/**
 * Every operation the faces expose. Adding an operation means adding its
 * file in `src/ops/` and one line here; the CLI, HTTP and MCP faces are
 * generated from this list.
 * @module
 */
import type { Operation } from "./types.ts";
import { fetchOp } from "./fetch.ts";
import { searchOp } from "./search.ts";
import { linksOp } from "./links.ts";
import { doctorOp } from "./doctor.ts";
import { docsOp } from "./docs.ts";
import { deepOp } from "./deep.ts";
import { cacheClearOp, cacheStatsOp } from "./cache.ts";
import { archiveSearchOp } from "./archive_search.ts";
import { archiveRelatedOp } from "./archive_related.ts";
import { archiveShowOp } from "./archive_show.ts";
import { archiveStatsOp } from "./archive_stats.ts";
import { archiveExportOp } from "./archive_export.ts";
import { archiveIndexOp } from "./archive_index.ts";

/** All operations, in the order `--help` lists them. */
export const OPERATIONS: readonly Operation[] = [
  searchOp,
  linksOp,
  fetchOp,
  docsOp,
  deepOp,
  cacheClearOp,
  cacheStatsOp,
  archiveSearchOp,
  archiveRelatedOp,
  archiveShowOp,
  archiveStatsOp,
  archiveExportOp,
  archiveIndexOp,
  doctorOp,
] as unknown as readonly Operation[];
