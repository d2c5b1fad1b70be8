import assert from "node:assert/strict";
import { decide, requestGuard } from "../../../src/pipeline/browser/policy.ts";

const publicDns = (host: string) =>
  Promise.resolve(host === "inside.example" ? ["10.0.0.7"] : ["93.184.216.34"]);

Deno.test("decide() never loads images, media or fonts, whatever the guard says", async () => {
  const guard = requestGuard({ allowPrivateNetwork: true, resolveDns: publicDns });
  for (const resourceType of ["Image", "Media", "Font"]) {
    const verdict = await decide({ url: "https://example.com/x", resourceType }, guard);
    assert.equal(verdict.allow, false, resourceType);
    assert.equal(!verdict.allow && verdict.guarded, false);
  }
  const script = await decide({ url: "https://example.com/a.js", resourceType: "Script" }, guard);
  assert.equal(script.allow, true);
});

Deno.test("requestGuard() refuses private addresses, names that resolve to them, and other schemes", async () => {
  const guard = requestGuard({ allowPrivateNetwork: false, resolveDns: publicDns });
  const cases: [string, boolean][] = [
    ["https://example.com/", true],
    ["http://127.0.0.2:8080/", false],
    ["http://[::1]/", false],
    ["http://169.254.169.254/latest/meta-data/", false],
    ["http://inside.example/", false],
    ["http://localhost:9222/json", false],
    ["file:///etc/passwd", false],
    ["chrome://version", false],
    ["data:text/html,x", false],
    ["https://user:pw@example.com/", false],
  ];
  for (const [url, ok] of cases) {
    const verdict = await decide({ url, resourceType: "Document" }, guard);
    assert.equal(verdict.allow, ok, url);
    if (!verdict.allow) assert.equal(verdict.guarded, true, url);
  }
});

Deno.test("requestGuard() lets one listed origin through and nothing else on that host", async () => {
  const guard = requestGuard({
    allowPrivateNetwork: false,
    resolveDns: publicDns,
    allowOrigins: ["http://127.0.0.1:8123"],
  });
  assert.equal((await guard(new URL("http://127.0.0.1:8123/page"))).ok, true);
  assert.equal((await guard(new URL("http://127.0.0.1:8124/page"))).ok, false);
  assert.equal((await guard(new URL("https://127.0.0.1:8123/page"))).ok, false);
});

Deno.test("requestGuard() with private networks allowed still refuses non-http(s) schemes", async () => {
  const guard = requestGuard({ allowPrivateNetwork: true, resolveDns: publicDns });
  assert.equal((await guard(new URL("http://127.0.0.2/"))).ok, true);
  assert.equal((await guard(new URL("file:///etc/passwd"))).ok, false);
  assert.equal((await guard(new URL("javascript:alert(1)"))).ok, false);
});

Deno.test("requestGuard() with a cache asks DNS once per host", async () => {
  const asked: string[] = [];
  const guard = requestGuard({
    allowPrivateNetwork: false,
    resolveDns: (host) => {
      asked.push(host);
      return publicDns(host);
    },
    cache: new Map(),
  });
  for (const path of ["/a", "/b.js", "/c.css"]) {
    assert.equal((await guard(new URL(`https://example.com${path}`))).ok, true);
  }
  assert.equal((await guard(new URL("https://inside.example/x"))).ok, false);
  assert.equal((await guard(new URL("https://inside.example/y"))).ok, false);
  assert.deepEqual(asked, ["example.com", "inside.example"]);
});
