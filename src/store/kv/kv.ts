/**
 * Opens Deno KV: `kv.sqlite3` under the data directory, or a remote KV
 * Connect store when QUARRY_KV_URL is set.
 * @module
 */
import type { Config } from "../../config.ts";
import { QuarryError } from "../../errors.ts";

/** Deno.openKv takes a remote store only as an http(s) KV Connect URL. */
const KV_CONNECT_URL = /^https?:\/\/[^\s/]+/i;

/** Opens the KV store named by the config, creating the data directory. */
export async function openKv(config: Config): Promise<Deno.Kv> {
  if (config.kvUrl) return await openRemoteKv(config.kvUrl);
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

const REMOTE_HINTS = [
  "Check QUARRY_KV_URL: a KV Connect URL such as https://api.deno.com/databases/<id>/connect",
  "Set DENO_KV_ACCESS_TOKEN to an access token of that database",
  "Or unset QUARRY_KV_URL to keep the cache in kv.sqlite3 under the data directory",
];

/** A remote store: a URL that is not one, or that cannot be reached, says so about QUARRY_KV_URL. */
async function openRemoteKv(url: string): Promise<Deno.Kv> {
  if (!KV_CONNECT_URL.test(url)) {
    throw new QuarryError("BAD_INPUT", `QUARRY_KV_URL "${url}" is not an http(s) KV Connect URL`, {
      suggestions: REMOTE_HINTS,
    });
  }
  try {
    return await Deno.openKv(url);
  } catch (error) {
    const why = error instanceof Error ? `: ${error.message}` : "";
    throw new QuarryError("UPSTREAM_ERROR", `Cannot open the KV store at QUARRY_KV_URL${why}`, {
      suggestions: REMOTE_HINTS,
      cause: error,
    });
  }
}
