/**
 * Reading pages under robots.txt (`--robots`, `QUARRY_ROBOTS=1`): the pages
 * robots.txt keeps Quarry from come back `robots_disallowed` without being
 * requested; the others are read as usual.
 * @module
 */
import type { PageRead } from "../pipeline/read.ts";
import { checkRobots, type RobotsCache } from "../pipeline/robots.ts";
import { kvRobots } from "../store/kv/robots.ts";
import type { OpContext } from "./types.ts";

function refusedPage(url: string, reason: string): PageRead {
  return {
    fetch: { url, finalUrl: url, status: "robots_disallowed", reason, redirects: [], elapsedMs: 0 },
    status: "robots_disallowed",
    reason,
  };
}

/** The KV cache of robots.txt answers; without a store, none (each run asks again). */
async function robotsCache(ctx: OpContext): Promise<RobotsCache> {
  try {
    return kvRobots(await ctx.stores.kv(), ctx.now);
  } catch (error) {
    ctx.progress(
      `robots.txt answers not cached: ${error instanceof Error ? error.message : error}`,
    );
    return { get: () => Promise.resolve(undefined), set: () => Promise.resolve() };
  }
}

/**
 * Reads `urls` with `read`, leaving out (and reporting) those robots.txt
 * disallows when `on`. Results keep the order of `urls`.
 */
export async function readUnderRobots(
  ctx: OpContext,
  urls: string[],
  on: boolean,
  read: (urls: string[]) => Promise<PageRead[]>,
): Promise<PageRead[]> {
  if (!on || urls.length === 0) return await read(urls);
  const refused = await checkRobots(urls, {
    fetch: ctx.fetch,
    resolveDns: ctx.resolveDns,
    now: ctx.now,
    cache: await robotsCache(ctx),
    fetchOptions: {
      userAgent: ctx.config.userAgent,
      allowPrivateNetwork: ctx.config.allowPrivateNetwork,
      signal: ctx.signal,
    },
  });
  for (const [url, reason] of refused) ctx.progress(`robots   ${url} (${reason})`);
  const allowed = urls.filter((u) => !refused.has(u));
  const pages = allowed.length > 0 ? await read(allowed) : [];
  const byUrl = new Map(allowed.map((u, i) => [u, pages[i]!]));
  return urls.map((u) => byUrl.get(u) ?? refusedPage(u, refused.get(u)!));
}
