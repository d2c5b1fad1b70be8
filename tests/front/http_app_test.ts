import assert from "node:assert/strict";
import { createHttpApp, type HttpDeps } from "../../src/front/http_app.ts";
import { LOOPBACK_HOSTS } from "../../src/front/http_guard.ts";
import type { Operation } from "../../src/ops/types.ts";
import { FAKE_OPS, testContext, waitOp } from "./fake_ops.ts";

const BASE = "http://127.0.0.1:8080";

async function app(options: Partial<HttpDeps> = {}) {
  const context = await testContext();
  const built = createHttpApp({ ops: FAKE_OPS, context, ...options });
  return {
    async call(path: string, init: RequestInit = {}) {
      const res = await built.fetch(new Request(`${BASE}${path}`, init));
      const text = await res.text();
      return { res, text, body: text ? JSON.parse(text) : undefined };
    },
    close: () => context.stores.close(),
  };
}

Deno.test("GET coerces query text into the schema's numbers, booleans and lists", async () => {
  const a = await app();
  const { res, body } = await a.call("/echo?q=hello&count=3&force&engine=a,b&max-tokens=50");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.deepEqual(body.results[0], {
    query: "hello",
    count: 3,
    force: true,
    engines: ["a", "b"],
    maxTokens: 50,
  });
  await a.close();
});

Deno.test("POST with a JSON body answers like GET with the same input", async () => {
  const a = await app();
  const get = await a.call("/echo?query=hi&count=2&engines=a&engines=c");
  const post = await a.call("/echo", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "hi", count: 2, engines: ["a", "c"] }),
  });
  assert.equal(post.res.status, 200);
  assert.deepEqual(post.body, get.body);
  await a.close();
});

Deno.test("a body that is not JSON is refused (415 for another type, 400 for bad JSON)", async () => {
  const a = await app();
  const plain = await a.call("/echo", { method: "POST", body: '{"query":"x"}' });
  assert.equal(plain.res.status, 415);
  const broken = await a.call("/echo", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{query",
  });
  assert.equal(broken.res.status, 400);
  assert.equal(broken.body.error.code, "BAD_INPUT");
  await a.close();
});

Deno.test("bad input is 400 BAD_INPUT naming the parameter", async () => {
  const a = await app();
  const missing = await a.call("/echo?count=2");
  assert.equal(missing.res.status, 400);
  assert.equal(missing.body.success, false);
  assert.equal(missing.body.command, "echo");
  assert.match(missing.body.error.message, /query/);
  const notNumber = await a.call("/echo?q=x&count=many");
  assert.equal(notNumber.res.status, 400);
  assert.match(notNumber.body.error.message, /count/);
  const unknown = await a.call("/echo?q=x&cuont=2");
  assert.equal(unknown.res.status, 400);
  assert.match(unknown.body.error.message, /cuont/);
  await a.close();
});

Deno.test("error codes map to HTTP statuses, returned or thrown", async () => {
  const a = await app();
  const expected: Record<string, number> = {
    BAD_INPUT: 400,
    NOT_FOUND: 404,
    MISSING_API_KEY: 424,
    UPSTREAM_ERROR: 502,
    TIMEOUT: 504,
    PERMISSION_DENIED: 403,
  };
  for (const [code, status] of Object.entries(expected)) {
    for (const thrown of [false, true]) {
      const { res, body } = await a.call(`/fail?code=${code}&thrown=${thrown}`);
      assert.equal(res.status, status, code);
      assert.equal(body.error.code, code);
      assert.deepEqual(body.error.suggestions, ["try again"]);
    }
  }
  await a.close();
});

Deno.test("RATE_LIMITED and CAPTCHA carry Retry-After (the error's, else the cool-down)", async () => {
  const a = await app();
  const limited = await a.call("/fail?code=RATE_LIMITED&retryAfter=7");
  assert.equal(limited.res.status, 429);
  assert.equal(limited.res.headers.get("retry-after"), "7");
  assert.equal(limited.body.error.retry_after, 7);
  const captcha = await a.call("/fail?code=CAPTCHA");
  assert.equal(captcha.res.status, 503);
  assert.equal(captcha.res.headers.get("retry-after"), String(60));
  const other = await a.call("/fail?code=TIMEOUT");
  assert.equal(other.res.headers.get("retry-after"), null);
  await a.close();
});

Deno.test("an unexpected error is 500 INTERNAL without its details", async () => {
  const logged: string[] = [];
  const a = await app({ log: (line) => logged.push(line) });
  const { res, text, body } = await a.call("/fail?code=INTERNAL");
  assert.equal(res.status, 500);
  assert.equal(body.error.code, "INTERNAL");
  assert.doesNotMatch(text, /secret|passwd/);
  assert.match(logged.join("\n"), /secret/);
  await a.close();
});

Deno.test("unknown routes are 404 and wrong methods 405 with Allow, as envelopes", async () => {
  const a = await app();
  const missing = await a.call("/nope");
  assert.equal(missing.res.status, 404);
  assert.equal(missing.body.error.code, "NOT_FOUND");
  const wrong = await a.call("/echo", { method: "PUT" });
  assert.equal(wrong.res.status, 405);
  assert.equal(wrong.res.headers.get("allow"), "GET, DELETE, POST, HEAD");
  assert.equal(wrong.body.success, false);
  const del = await a.call("/echo?query=x", { method: "DELETE" });
  assert.equal(del.body.command, "wipe");
  await a.close();
});

Deno.test("with a token, every route but /health needs Authorization: Bearer", async () => {
  const a = await app({ token: "s3cret" });
  const none = await a.call("/echo?q=x");
  assert.equal(none.res.status, 401);
  assert.match(none.res.headers.get("www-authenticate") ?? "", /^Bearer/);
  assert.equal(none.body.success, false);
  const wrong = await a.call("/echo?q=x", { headers: { authorization: "Bearer s3cre" } });
  assert.equal(wrong.res.status, 401);
  const right = await a.call("/echo?q=x", { headers: { authorization: "Bearer s3cret" } });
  assert.equal(right.res.status, 200);
  assert.equal((await a.call("/openapi.json")).res.status, 401);
  assert.equal((await a.call("/nope")).res.status, 401);
  assert.equal((await a.call("/health")).res.status, 200);
  await a.close();
});

Deno.test("a body over the limit is 413", async () => {
  const a = await app({ http: { maxBodyBytes: 64 } });
  const { res, body } = await a.call("/echo", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "x".repeat(100) }),
  });
  assert.equal(res.status, 413);
  assert.equal(body.error.code, "BAD_INPUT");
  await a.close();
});

Deno.test("foreign Host names and Origins are refused; --cors allows one origin", async () => {
  const a = await app({ http: { allowedHosts: LOOPBACK_HOSTS } });
  const rebound = await a.call("/echo?q=x", { headers: { host: "evil.example:8080" } });
  assert.equal(rebound.res.status, 403);
  const local = await a.call("/echo?q=x", { headers: { host: "localhost:8080" } });
  assert.equal(local.res.status, 200);
  const foreign = await a.call("/echo?q=x", { headers: { origin: "https://evil.example" } });
  assert.equal(foreign.res.status, 403);
  assert.equal(foreign.res.headers.get("access-control-allow-origin"), null);
  const c = await app({ http: { cors: "https://app.example" } });
  const allowed = await c.call("/echo?q=x", { headers: { origin: "https://app.example" } });
  assert.equal(allowed.res.status, 200);
  assert.equal(allowed.res.headers.get("access-control-allow-origin"), "https://app.example");
  await a.close();
  await c.close();
});

Deno.test("/health reports status, version and the KV store", async () => {
  const a = await app();
  const { res, body } = await a.call("/health");
  assert.equal(res.status, 200);
  assert.equal(body.status, "ok");
  assert.match(body.version, /^\d+\.\d+\.\d+/);
  assert.deepEqual(body.stores, { kv: "ok", archive: "ok" });
  await a.close();
});

Deno.test("a client that goes away aborts the operation it was waiting for", async () => {
  const context = await testContext();
  let aborted = false;
  const ops = [waitOp(() => (aborted = true))] as readonly Operation[];
  const built = createHttpApp({ ops, context });
  const controller = new AbortController();
  const pending = built.fetch(new Request(`${BASE}/wait?ms=2000`, { signal: controller.signal }));
  await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  const res = await pending;
  await res.body?.cancel();
  assert.equal(aborted, true);
  await context.stores.close();
});
