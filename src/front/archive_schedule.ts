/**
 * `quarry serve --index DIR --index-every 1h`: folder indexing on a
 * schedule while the server runs, as a serve extension.
 * @module
 */
import { Option } from "commander";
import { parseDuration } from "../config.ts";
import { toQuarryError } from "../errors.ts";
import type { ServeExtension } from "./serve_command.ts";
import { indexFolders } from "../store/archive/indexer.ts";
import { countsLine, indexDeps } from "../ops/archive_index.ts";
import type { OpContext } from "../ops/types.ts";

/** Default time between two scheduled runs. */
export const DEFAULT_INDEX_EVERY = "1h";

/**
 * Runs `indexFolders` over `dirs` now and then every `everyMs`, until the
 * signal aborts. A failed run is logged and the schedule goes on.
 */
export async function indexOnSchedule(
  ctx: OpContext,
  dirs: string[],
  everyMs: number,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<void> {
  const archive = await ctx.stores.archive();
  while (!signal.aborted) {
    try {
      log(`archive index: ${countsLine(await indexFolders(dirs, indexDeps(ctx, archive)))}`);
    } catch (error) {
      log(`archive index failed: ${toQuarryError(error).message}`);
    }
    try {
      await ctx.sleep(everyMs, signal);
    } catch {
      return; // Aborted while waiting: the server is shutting down.
    }
  }
}

/** The serve extension; `log` receives one line per run (the server's stderr). */
export function archiveIndexExtension(log: (line: string) => void): ServeExtension {
  return {
    options: [
      new Option("--index <dir>", "Index this folder into the archive while serving (repeatable)")
        .argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
      new Option("--index-every <duration>", "How often --index folders are re-indexed")
        .default(DEFAULT_INDEX_EVERY),
    ],
    async start(context, opts, signal) {
      const dirs = (opts.index as string[] | undefined) ?? [];
      if (dirs.length === 0) return;
      const every = parseDuration(String(opts.indexEvery ?? DEFAULT_INDEX_EVERY), "--index-every");
      await indexOnSchedule(context, dirs, every, signal, log);
    },
  };
}
