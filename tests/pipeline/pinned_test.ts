import assert from "node:assert/strict";
import { fetchAll } from "../../src/pipeline/fetch.ts";
import { createConnector } from "../../src/pipeline/pinned.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";

const TLS = new URL("../../fixtures/tls/", import.meta.url);

/** A resolver that answers from a list, one answer per call, and counts the calls. */
function rebinding(answers: string[][]) {
  const calls: string[] = [];
  return {
    calls,
    resolveDns: (host: string) => {
      calls.push(host);
      return Promise.resolve(answers[Math.min(calls.length - 1, answers.length - 1)]!);
    },
  };
}

Deno.test("fetchAll() connects to the address the resolver gave, with no lookup of its own", async () => {
  const web = await startFixtureWeb();
  const connector = createConnector();
  try {
    const port = new URL(web.origin).port;
    const dns = rebinding([["127.0.0.1"]]);
    const [page] = await fetchAll([`http://rebind.test:${port}/pages/articles/http3.html`], {
      allowPrivateNetwork: true,
      timeoutMs: 5000,
    }, { fetch, connect: connector.fetch, resolveDns: dns.resolveDns, now: Date.now });
    assert.equal(page?.status, "ok", page?.reason);
    assert.deepEqual(dns.calls, ["rebind.test"]);
  } finally {
    connector.close();
    await web.close();
  }
});

Deno.test("a name that rebinds to loopback after the check never reaches loopback", async () => {
  const web = await startFixtureWeb();
  const connector = createConnector();
  try {
    const port = new URL(web.origin).port;
    // Public the first time (the check), loopback every time after.
    const dns = rebinding([["203.0.114.1"], ["127.0.0.1"]]);
    const [page] = await fetchAll([`http://rebind.test:${port}/fault/secret`], {
      timeoutMs: 1500,
    }, { fetch, connect: connector.fetch, resolveDns: dns.resolveDns, now: Date.now });
    assert.notEqual(page?.status, "ok");
    assert.deepEqual(web.requests, []);
    assert.deepEqual(dns.calls, ["rebind.test"]);
  } finally {
    connector.close();
    await web.close();
  }
});

Deno.test("https goes through the pinned tunnel with the host name's TLS checks", async () => {
  const cert = await Deno.readTextFile(new URL("cert.pem", TLS));
  const key = await Deno.readTextFile(new URL("key.pem", TLS));
  const hosts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, cert, key, onListen() {} }, (req) => {
    hosts.push(new URL(req.url).host); // HTTP/2 carries it as :authority
    return new Response("<p>over tls</p>", { headers: { "content-type": "text/html" } });
  });
  const ca = await Deno.readTextFile(new URL("ca.pem", TLS));
  const connector = createConnector({ caCerts: [ca] });
  try {
    const port = server.addr.port;
    const deps = {
      fetch,
      connect: connector.fetch,
      resolveDns: rebinding([["127.0.0.1"]]).resolveDns,
      now: Date.now,
    };
    const options = { allowPrivateNetwork: true, timeoutMs: 5000 };
    const [page] = await fetchAll([`https://rebind.test:${port}/`], options, deps);
    assert.equal(page?.status, "ok", page?.reason);
    assert.equal(page?.body, "<p>over tls</p>");
    assert.deepEqual(hosts, [`rebind.test:${port}`]);
    // The certificate names rebind.test: another name pinned to the same address fails TLS.
    const [wrong] = await fetchAll([`https://other.test:${port}/`], options, deps);
    assert.notEqual(wrong?.status, "ok");
  } finally {
    connector.close();
    await server.shutdown();
  }
});
