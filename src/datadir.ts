/**
 * Prints the data directory. `deno task` runs this to scope `--allow-write`
 * to the directory Quarry will use, since task strings cannot compute it.
 * @module
 */
import { readEnv, resolveDataDir } from "./config.ts";

if (import.meta.main) {
  console.log(resolveDataDir(readEnv()));
}
