/**
 * Opens Deno KV: `kv.sqlite3` under the data directory, or a remote KV
 * Connect store when QUARRY_KV_URL is set.
 * @module
 */
import type { Config } from "../../config.ts";
import { QuarryError } from "../../errors.ts";

/** Opens the KV store named by the config, creating the data directory. */
export async function openKv(config: Config): Promise<Deno.Kv> {
  if (config.kvUrl) return await Deno.openKv(config.kvUrl);
  try {
    await Deno.mkdir(config.home, { recursive: true });
    return await Deno.openKv(`${config.home}/kv.sqlite3`);
  } catch (error) {
    throw new QuarryError("PERMISSION_DENIED", `Cannot open the store in "${config.home}"`, {
      suggestions: [
        "Point QUARRY_HOME at a writable directory",
        "Run through `deno task quarry`, which grants write access to the data directory",
      ],
      cause: error,
    });
  }
}
