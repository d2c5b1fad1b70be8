import assert from "node:assert/strict";
import { QuarryError } from "../../src/errors.ts";
import {
  checkUrl,
  guardHost,
  isPrivateAddress,
  systemResolveDns,
} from "../../src/pipeline/guard.ts";
import type { ResolveDns } from "../../src/pipeline/guard.ts";

/** DNS that must never be asked: literal hosts are judged without it. */
const noDns: ResolveDns = (host) => Promise.reject(new Error(`DNS asked for ${host}`));

function fakeDns(records: Record<string, string[]>): ResolveDns {
  return (host) => {
    const found = records[host];
    return found ? Promise.resolve(found) : Promise.reject(new Error("NXDOMAIN"));
  };
}

Deno.test("checkUrl() accepts http and https URLs", () => {
  assert.equal(checkUrl("https://example.com/a?b=1").href, "https://example.com/a?b=1");
  assert.equal(checkUrl("  http://example.com  ").hostname, "example.com");
});

Deno.test("checkUrl() refuses other schemes, credentials and garbage as BAD_INPUT", () => {
  for (
    const raw of [
      "file:///etc/passwd",
      "ftp://example.com/",
      "javascript:alert(1)",
      "data:text/html,hi",
      "gopher://example.com/",
      "http://user:pass@example.com/",
      "https://user@example.com/",
      "not a url",
      "//example.com/relative",
      "http://[::1/",
    ]
  ) {
    assert.throws(
      () => checkUrl(raw),
      (e: unknown) => e instanceof QuarryError && e.code === "BAD_INPUT" && e.message.includes(raw),
      raw,
    );
  }
});

Deno.test("isPrivateAddress() flags every non-public IPv4 range", () => {
  for (
    const ip of [
      "0.0.0.0",
      "0.1.2.3",
      "10.0.0.1",
      "100.64.0.1",
      "100.127.255.254",
      "127.0.0.1",
      "127.255.255.255",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "192.168.1.1",
      "198.18.0.1",
      "198.51.100.7",
      "203.0.113.9",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
    ]
  ) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
});

Deno.test("isPrivateAddress() lets public IPv4 and IPv6 addresses through", () => {
  for (
    const ip of [
      "1.1.1.1",
      "8.8.8.8",
      "93.184.216.34",
      "100.63.255.255",
      "100.128.0.1",
      "172.15.255.255",
      "172.32.0.1",
      "192.169.0.1",
      "223.255.255.255",
      "2606:4700:4700::1111",
      "2a00:1450:4001:82a::200e",
      "64:ff9b::808:808",
      "::ffff:8.8.8.8",
      "2002:0808:0808::1",
    ]
  ) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

Deno.test("isPrivateAddress() flags private IPv6 ranges and embedded private IPv4", () => {
  for (
    const ip of [
      "::",
      "::1",
      "0:0:0:0:0:0:0:1",
      "[::1]",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a00:1",
      "::127.0.0.1",
      "::ffff:169.254.169.254",
      "64:ff9b::7f00:1",
      "64:ff9b:1::1",
      "2002:7f00:0001::1",
      "2002:c0a8:0101::",
      "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo client 127.0.0.1
      "2001:db8::1",
      "3fff::1",
      "fc00::1",
      "fd12:3456:789a::1",
      "fe80::1",
      "fe80::1%eth0",
      "febf::1",
      "fec0::1",
      "ff02::1",
      "100::1",
    ]
  ) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
});

Deno.test("isPrivateAddress() fails closed on text that is not an address", () => {
  for (const text of ["", "example.com", "1.2.3", "256.1.1.1", "1::2::3", "12345::1", "::g"]) {
    assert.equal(isPrivateAddress(text), true, text);
  }
});

Deno.test("guardHost() refuses every spelling of a private address without asking DNS", async () => {
  for (
    const raw of [
      "http://127.0.0.1/",
      "http://127.1/",
      "http://0x7f000001/",
      "http://2130706433/",
      "http://0177.0.0.1/",
      "http://0x7f.0.0.1/",
      "http://127.0.0.1./",
      "http://[::ffff:127.0.0.1]/",
      "http://[::1]/",
      "http://[0:0:0:0:0:0:0:1]/",
      "http://[::]/",
      "http://0.0.0.0/",
      "http://0/",
      "http://localhost/",
      "http://LOCALHOST./",
      "http://foo.localhost/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "https://10.0.0.1:8443/",
      "http://100.64.1.1/",
      "http://224.0.0.1/",
    ]
  ) {
    const result = await guardHost(checkUrl(raw), noDns);
    assert.equal(result.ok, false, raw);
    if (!result.ok) {
      assert.equal(result.status, "private_address", raw);
      assert.match(result.reason, /not on the public internet/, raw);
    }
  }
});

Deno.test("guardHost() allows public literal addresses", async () => {
  assert.deepEqual(await guardHost(checkUrl("http://93.184.216.34/"), noDns), {
    ok: true,
    addresses: ["93.184.216.34"],
  });
  assert.deepEqual(await guardHost(checkUrl("http://[2606:4700:4700::1111]/"), noDns), {
    ok: true,
    addresses: ["2606:4700:4700::1111"],
  });
});

Deno.test("guardHost() refuses a name when any of its addresses is private", async () => {
  const dns = fakeDns({
    "public.test": ["93.184.216.34", "2606:2800:220:1::1"],
    "mixed.test": ["93.184.216.34", "10.0.0.7"],
    "rebind.test": ["::ffff:192.168.0.1"],
  });
  assert.deepEqual(await guardHost(checkUrl("https://public.test/x"), dns), {
    ok: true,
    addresses: ["93.184.216.34", "2606:2800:220:1::1"],
  });
  const mixed = await guardHost(checkUrl("https://mixed.test/x"), dns);
  assert.equal(mixed.ok, false);
  if (!mixed.ok) assert.match(mixed.reason, /mixed\.test resolves to 10\.0\.0\.7/);
  assert.equal((await guardHost(checkUrl("http://rebind.test/"), dns)).ok, false);
});

Deno.test("guardHost() reports a host that does not resolve as http_error", async () => {
  const dns = fakeDns({ "empty.test": [] });
  const missing = await guardHost(checkUrl("https://missing.test/"), dns);
  assert.deepEqual(missing, {
    ok: false,
    status: "http_error",
    reason: "Cannot resolve host missing.test",
  });
  const empty = await guardHost(checkUrl("https://empty.test/"), dns);
  assert.equal(empty.ok || empty.status, "http_error");
});

Deno.test("systemResolveDns() answers localhost names and literals without DNS", async () => {
  assert.deepEqual(await systemResolveDns("localhost"), ["127.0.0.1", "::1"]);
  assert.deepEqual(await systemResolveDns("api.localhost."), ["127.0.0.1", "::1"]);
  assert.deepEqual(await systemResolveDns("10.1.2.3"), ["10.1.2.3"]);
  assert.deepEqual(await systemResolveDns("[::1]"), ["::1"]);
});
