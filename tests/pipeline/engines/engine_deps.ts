/**
 * Test helpers: a Config pointing every engine at the fixture web, and a
 * fetch that remembers what was sent.
 * @module
 */
import { type Config, configFromEnv, type Env } from "../../../src/config.ts";
import type { EngineDeps, EngineName } from "../../../src/pipeline/engines/types.ts";
import { type EngineMode, fakeEngineEnv } from "../../support/web/engines.ts";

/** A request as an engine sent it. */
export interface SentRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

/** Config with every engine (SearXNG and the keyed APIs too) on the fixture web. */
export function fakeConfig(
  origin: string,
  modes: Partial<Record<EngineName, EngineMode>> = {},
  env: Env = {},
): Config {
  return configFromEnv({
    ...fakeEngineEnv(origin, modes, { searxng: true, keys: true }),
    QUARRY_HOME: "/nonexistent/quarry-test",
    QUARRY_RATE_LIMIT: "0",
    ...env,
  });
}

/** Engine deps over the real fetch, recording every request in `sent`. */
export function recordingDeps(config: Config): EngineDeps & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    const body = init?.body;
    sent.push({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: typeof body === "string"
        ? body
        : body instanceof URLSearchParams
        ? body.toString()
        : "",
    });
    return globalThis.fetch(input, init);
  };
  return { config, fetch, now: () => Date.parse("2026-05-01T12:00:00Z"), sent };
}
