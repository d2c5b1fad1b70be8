import assert from "node:assert/strict";
import { QuarryError } from "../../../src/errors.ts";
import {
  type ApiService,
  backoffMs,
  DEFAULT_RETRY_CONFIG,
  type HttpDeps,
  parseRetryAfter,
  requestJson,
} from "../../../src/pipeline/apis/retry.ts";

const SERVICE: ApiService = { name: "Svc", keyEnv: "SVC_KEY", keyUrl: "https://svc.example/keys" };

/** Deps whose fetch answers from a list (the last answer repeats) and whose sleep moves a clock. */
function deps(answers: (() => Response)[]): HttpDeps & { sleeps: number[]; calls: number } {
  const clock = { t: 0 };
  const state = {
    sleeps: [] as number[],
    calls: 0,
    fetch: (() => {
      const answer = answers[Math.min(state.calls, answers.length - 1)]!;
      state.calls++;
      return Promise.resolve(answer());
    }) as typeof fetch,
    now: () => clock.t,
    sleep: (ms: number) => {
      state.sleeps.push(ms);
      clock.t += ms;
      return Promise.resolve();
    },
    random: () => 0,
  };
  return state;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers });

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    assert.ok(error instanceof QuarryError, String(error));
    return error.code;
  }
}

Deno.test("parseRetryAfter() reads seconds and HTTP dates", () => {
  assert.equal(parseRetryAfter("3", 0), 3000);
  assert.equal(parseRetryAfter(null, 0), undefined);
  assert.equal(parseRetryAfter("soon", 0), undefined);
  const now = Date.parse("2026-11-21T12:00:00Z");
  assert.equal(parseRetryAfter("Sat, 21 Nov 2026 12:00:07 GMT", now), 7000);
  assert.equal(parseRetryAfter("Sat, 21 Nov 2026 11:00:00 GMT", now), 0);
});

Deno.test("backoffMs() doubles up to the ceiling with jitter in the upper half", () => {
  const c = DEFAULT_RETRY_CONFIG;
  assert.equal(backoffMs(1, c, () => 0), 250);
  assert.equal(backoffMs(1, c, () => 1), 500);
  assert.equal(backoffMs(3, c, () => 1), 2000);
  assert.equal(backoffMs(20, c, () => 1), c.maxDelayMs);
});

Deno.test("requestJson() returns parsed JSON and the attempts it took", async () => {
  const d = deps([json({ e: 1 }, 503), json({ ok: true })]);
  const res = await requestJson(d, SERVICE, { url: "http://svc/x" });
  assert.deepEqual([res.data, res.attempts, d.sleeps], [{ ok: true }, 2, [250]]);
});

Deno.test("requestJson() honours Retry-After and gives RATE_LIMITED within the total budget", async () => {
  const d = deps([json({ message: "slow down" }, 429, { "retry-after": "20" })]);
  const error = await requestJson(d, SERVICE, { url: "http://svc/x" }).catch((e) => e);
  assert.ok(error instanceof QuarryError);
  assert.equal(error.code, "RATE_LIMITED");
  assert.equal(error.retryAfter, 20);
  assert.match(error.message, /slow down/);
  assert.deepEqual(d.sleeps, [20_000, 20_000], "a third wait would pass 45 s");
});

Deno.test("requestJson() maps 401/403 to MISSING_API_KEY without retrying", async () => {
  for (const status of [401, 403]) {
    const d = deps([json({ error: "invalid_api_key" }, status)]);
    assert.equal(await code(requestJson(d, SERVICE, { url: "http://svc/x" })), "MISSING_API_KEY");
    assert.equal(d.calls, 1);
  }
});

Deno.test("requestJson() fails other 4xx at once and hands back accepted ones", async () => {
  const d = deps([json({ error: "bad" }, 400)]);
  assert.equal(await code(requestJson(d, SERVICE, { url: "http://svc/x" })), "UPSTREAM_ERROR");
  assert.equal(d.calls, 1);
  const accepted = await requestJson(deps([json({ error: "nope" }, 404)]), SERVICE, {
    url: "http://svc/x",
    accept: [404],
  });
  assert.equal(accepted.status, 404);
});

Deno.test("requestJson() reports malformed JSON and unreachable services as UPSTREAM_ERROR", async () => {
  const bad = deps([() => new Response("{not json")]);
  assert.equal(await code(requestJson(bad, SERVICE, { url: "http://svc/x" })), "UPSTREAM_ERROR");
  const down = deps([() => {
    throw new TypeError("connection refused");
  }]);
  assert.equal(await code(requestJson(down, SERVICE, { url: "http://svc/x" })), "UPSTREAM_ERROR");
  assert.equal(down.calls, DEFAULT_RETRY_CONFIG.maxAttempts);
});

Deno.test("requestJson() sends JSON bodies with their content type", async () => {
  let seen: Request | undefined;
  const d = deps([json({})]);
  d.fetch = ((url: string, init: RequestInit) => {
    seen = new Request(url, init);
    return Promise.resolve(new Response("{}"));
  }) as typeof fetch;
  await requestJson(d, SERVICE, { url: "http://svc/x", method: "POST", body: { a: 1 } });
  assert.equal(seen?.method, "POST");
  assert.equal(seen?.headers.get("content-type"), "application/json");
  assert.deepEqual(await seen?.json(), { a: 1 });
});
