/**
 * Opens the archive named by the config: `archive.db` under the data
 * directory, created on first use.
 * @module
 */
import type { Config } from "../../config.ts";
import { QuarryError } from "../../errors.ts";
import { Archive } from "./archive.ts";

/** File name of the archive inside the data directory. */
export const ARCHIVE_FILE = "archive.db";

/** Opens (creating the data directory and the schema when needed) the archive of a config. */
export async function openArchive(config: Config): Promise<Archive> {
  try {
    await Deno.mkdir(config.home, { recursive: true });
  } catch (error) {
    throw new QuarryError(
      "PERMISSION_DENIED",
      `Cannot create the data directory "${config.home}"`,
      {
        suggestions: [
          "Point QUARRY_HOME at a writable directory",
          "Run through `deno task quarry`, which grants write access to the data directory",
        ],
        cause: error,
      },
    );
  }
  return Archive.open(`${config.home}/${ARCHIVE_FILE}`);
}
