/**
 * An OpContext for operation tests against the fixture web: real fetch and
 * KV (in a temp data directory), a fake clock that `sleep` advances (so
 * retries and backoff take no real time), and test keys for the keyed APIs.
 * @module
 */
import { configFromEnv, type Env } from "../../src/config.ts";
import type { OpContext } from "../../src/ops/types.ts";
import type { Archive } from "../../src/store/archive/archive.ts";
import { storesFor } from "../../src/store/stores.ts";
import type { FixtureWeb } from "../support/fixture_web.ts";

/** A test context and what it recorded. */
export interface ApiTestContext {
  ctx: OpContext;
  clock: { t: number };
  /** Every sleep asked for, in milliseconds. */
  sleeps: number[];
  /** The archive the context's operations write to. */
  archive(): Promise<Archive>;
  close(): Promise<void>;
}

/** Builds a context whose Context7 and Perplexity point at the fixture web. */
export async function apiContext(web: FixtureWeb, env: Env = {}): Promise<ApiTestContext> {
  const home = await Deno.makeTempDir({ prefix: "quarry-ops-" });
  const config = configFromEnv({
    QUARRY_HOME: home,
    QUARRY_ALLOW_PRIVATE_NETWORK: "1",
    CONTEXT7_API_KEY: "ctx7sk-test",
    QUARRY_CONTEXT7_URL: `${web.origin}/context7`,
    PERPLEXITY_API_KEY: "pplx-test",
    QUARRY_PERPLEXITY_URL: `${web.origin}/perplexity`,
    ...env,
  });
  const clock = { t: Date.UTC(2026, 10, 21, 12) };
  const sleeps: number[] = [];
  const ctx: OpContext = {
    config,
    fetch: globalThis.fetch.bind(globalThis),
    resolveDns: () => Promise.resolve(["127.0.0.1"]),
    now: () => clock.t,
    sleep: (ms) => {
      sleeps.push(ms);
      clock.t += ms;
      return Promise.resolve();
    },
    random: () => 0.5,
    stores: storesFor(config),
    progress: () => {},
  };
  return {
    ctx,
    clock,
    sleeps,
    archive: () => ctx.stores.archive(),
    async close() {
      await ctx.stores.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}
