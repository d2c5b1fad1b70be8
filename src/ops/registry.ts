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

/** All operations, in the order `--help` lists them. */
export const OPERATIONS: readonly Operation[] = [
  searchOp,
  linksOp,
  fetchOp,
  docsOp,
  deepOp,
  cacheClearOp,
  cacheStatsOp,
  doctorOp,
] as unknown as readonly Operation[];
