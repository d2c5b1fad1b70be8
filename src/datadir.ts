/**
 * Prints the data directory. `deno task install` and `deno task compile` run
 * this once, when the command is built, to fix `--allow-write` to the
 * directory Quarry will use (the installed shim and the binary keep that
 * flag; task strings cannot compute it). `deno task quarry` does not: it
 * grants the candidates and the program narrows them (src/permissions.ts).
 * @module
 */
import { readEnv, resolveDataDir } from "./config.ts";

if (import.meta.main) {
  console.log(resolveDataDir(readEnv()));
}
