import assert from "node:assert/strict";
import {
  batchDeadline,
  DEADLINE_MARGIN_MS,
  DEFAULT_FETCH_OPTIONS,
  fetchAll,
  type FetchDeps,
} from "../../src/pipeline/fetch.ts";
import type { FetchResult } from "../../src/pipeline/types.ts";
import {
  DEFAULT_ROUTES,
  type FixtureWeb,
  type Route,
  startFixtureWeb,
} from "../support/fixture_web.ts";

/** A made-up public host: DNS says it is public, and requests to it reach the fixture web. */
const PUBLIC = "http://public.test";
/** Resolves to a private address: a redirect there must be refused. */
const INTRANET = "intranet.test";
/** Short enough to keep the suite fast, for tests where a timeout is the point. */
const FAST = { timeoutMs: 400 };
/** Generous, for tests where a timeout would be a false failure on a busy machine. */
const PATIENT = { timeoutMs: 5000 };

/**
 * Deps that play the internet: `public.test` resolves to a public address
 * and is routed to the loopback fixture web, so the guard stays on while the
 * fixture answers. Every URL handed to fetch is logged in `sent`.
 */
function internet(web: FixtureWeb, sent: string[] = []): FetchDeps {
  const origin = new URL(web.origin);
  const dns: Record<string, string[]> = {
    "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    [INTRANET]: ["10.0.0.8"],
  };
  return {
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      sent.push(url.href);
      if (url.hostname === "public.test") url.host = origin.host;
      return fetch(url, init);
    },
    resolveDns: (host) =>
      dns[host] ? Promise.resolve(dns[host]) : Promise.reject(new Error("NXDOMAIN")),
    now: () => performance.now(),
  };
}

async function withWeb(fn: (web: FixtureWeb) => Promise<void>, routes = DEFAULT_ROUTES) {
  const web = await startFixtureWeb(routes);
  try {
    await fn(web);
  } finally {
    await web.close();
  }
}

function byUrl(results: FetchResult[]): Record<string, FetchResult> {
  return Object.fromEntries(results.map((r) => [r.url.replace(PUBLIC, ""), r]));
}

Deno.test("fetchAll() gives every fault its status and reason, in the order asked", async () => {
  await withWeb(async (web) => {
    const expected: [string, string, RegExp][] = [
      ["/fault/delay?ms=20", "ok", /^$/],
      ["/fault/reset", "http_error", /Connection reset by public\.test while reading the body/],
      ["/fault/status/404", "http_error", /^HTTP 404 Not Found$/],
      ["/fault/status/500", "http_error", /^HTTP 500 Internal Server Error$/],
      ["/fault/status/403", "blocked", /HTTP 403 Forbidden: the site refused/],
      ["/fault/status/429", "blocked", /HTTP 429 Too Many Requests: rate limited/],
      ["/fault/captcha", "captcha", /CAPTCHA or bot challenge \(HTTP 503/],
      ["/fault/captcha?status=200", "captcha", /CAPTCHA or bot challenge/],
      ["/fault/captcha?status=403&header=1", "captcha", /Bot challenge \(HTTP 403\)/],
      ["/fault/redirect?n=3", "ok", /^$/],
      ["/fault/redirect?n=6", "http_error", /More than 5 redirects/],
      ["/fault/loop", "http_error", /Redirect loop: .*step=a was already visited/],
      ["/fault/huge", "too_large", /over the 10 MB cap/],
      ["/fault/huge?length=1", "too_large", /Body of \d+ bytes is over the 10 MB cap/],
      ["/fault/gzip-bomb", "too_large", /over the 10 MB cap/],
      ["/fault/type/image/png", "not_html", /Not a web page: image\/png/],
      ["/fault/type/application/zip", "not_html", /Not a web page: application\/zip/],
      ["/fault/type/application/octet-stream", "not_html", /Not a web page or a PDF/],
      ["/fault/type/none", "not_html", /Binary content without a Content-Type/],
      ["/fault/empty", "empty", /empty page/],
      ["/fault/status/418", "http_error", /^HTTP 418/],
    ];
    const urls = expected.map(([path]) => PUBLIC + path);
    const results = await fetchAll(urls, PATIENT, internet(web));
    assert.deepEqual(results.map((r) => r.url), urls);
    for (const [i, [path, status, reason]] of expected.entries()) {
      const result = results[i]!;
      assert.equal(result.status, status, `${path}: ${result.reason}`);
      assert.match(result.reason ?? "", reason, path);
      assert.ok(result.elapsedMs >= 0);
    }
    const pages = byUrl(results);
    assert.ok(pages["/fault/delay?ms=20"]?.body?.includes("<h1>Delayed page</h1>"));
    const redirected = pages["/fault/redirect?n=3"]!;
    assert.equal(redirected.finalUrl, `${PUBLIC}/fault/redirect?n=0`);
    assert.equal(redirected.redirects.length, 3);
    assert.ok(redirected.body?.includes("Arrived after redirects"));
    assert.equal(pages["/fault/status/404"]?.httpStatus, 404);
    assert.equal(pages["/fault/type/image/png"]?.contentType, "image/png");
  });
});

Deno.test("fetchAll() times out a silent server and a trickling body", async () => {
  await withWeb(async (web) => {
    const urls = ["/fault/hang", "/fault/slow?chunks=50&every=100"].map((p) => PUBLIC + p);
    const [hang, slow] = await fetchAll(urls, FAST, internet(web));
    assert.equal(hang?.status, "timeout");
    assert.equal(hang?.reason, "Timed out after 400 ms before the server answered");
    assert.equal(slow?.status, "timeout");
    assert.equal(slow?.httpStatus, 200);
    assert.equal(slow?.reason, "Timed out after 400 ms while reading the body");
  });
});

Deno.test("fetchAll() refuses bad URLs in a batch without failing the rest", async () => {
  await withWeb(async (web) => {
    const sent: string[] = [];
    const urls = [
      "file:///etc/passwd",
      `${PUBLIC}/fault/delay?ms=1`,
      "http://user:secret@public.test/fault/delay",
      "not a url",
      "http://nowhere.test/",
    ];
    const results = await fetchAll(urls, FAST, internet(web, sent));
    assert.deepEqual(results.map((r) => r.status), [
      "blocked",
      "ok",
      "blocked",
      "blocked",
      "http_error",
    ]);
    assert.match(results[0]!.reason!, /only http\(s\) URLs/);
    assert.match(results[2]!.reason!, /credentials/);
    assert.match(results[3]!.reason!, /not a valid URL/);
    assert.equal(results[4]!.reason, "Cannot resolve host nowhere.test");
    assert.deepEqual(sent, [`${PUBLIC}/fault/delay?ms=1`]);
  });
});

Deno.test("fetchAll() lands fast pages before a hanging one", async () => {
  await withWeb(async (web) => {
    const landed: string[] = [];
    const urls = ["/fault/hang", "/fault/delay?ms=1", "/fault/delay?ms=30"].map((p) => PUBLIC + p);
    const results = await fetchAll(urls, {
      ...FAST,
      onResult: (r) => landed.push(r.url),
    }, internet(web));
    assert.deepEqual(results.map((r) => r.status), ["timeout", "ok", "ok"]);
    assert.equal(landed.length, 3);
    assert.equal(landed.at(-1), urls[0]);
  });
});

Deno.test("fetchAll() refuses a redirect to a private address without requesting it", async () => {
  await withWeb(async (web) => {
    const port = new URL(web.origin).port;
    const targets = [
      `${web.origin}/fault/secret?as=literal`,
      `http://localhost:${port}/fault/secret?as=localhost`,
      `http://2130706433:${port}/fault/secret?as=decimal`,
      `http://[::ffff:127.0.0.1]:${port}/fault/secret?as=mapped`,
      `http://[::1]:${port}/fault/secret?as=v6`,
      `http://${INTRANET}:${port}/fault/secret?as=dns`,
    ];
    const sent: string[] = [];
    const urls = targets.map((t) => `${PUBLIC}/fault/redirect-to?url=${encodeURIComponent(t)}`);
    const results = await fetchAll(urls, FAST, internet(web, sent));
    for (const [i, result] of results.entries()) {
      assert.equal(result.status, "private_address", `${targets[i]}: ${result.reason}`);
      assert.equal(result.redirects.length, 1);
      assert.equal(result.finalUrl, result.redirects[0]);
    }
    assert.match(results[5]!.reason!, /intranet\.test resolves to 10\.0\.0\.8/);
    assert.ok(!web.requests.some((path) => path.startsWith("/fault/secret")), web.requests.join());
    assert.ok(sent.every((url) => url.startsWith(PUBLIC)), sent.join("\n"));
  });
});

Deno.test("fetchAll() never requests any spelling of a private address", async () => {
  await withWeb(async (web) => {
    const port = new URL(web.origin).port;
    const hosts = [
      "127.0.0.1",
      "127.1",
      "0x7f000001",
      "2130706433",
      "0177.0.0.1",
      "[::ffff:127.0.0.1]",
      "[::1]",
      "localhost",
      "foo.localhost",
      "0.0.0.0",
      INTRANET,
    ];
    const sent: string[] = [];
    const urls = hosts.map((h) => `http://${h}:${port}/fault/secret`);
    const results = await fetchAll(urls, FAST, internet(web, sent));
    assert.deepEqual(results.map((r) => r.status), hosts.map(() => "private_address"));
    assert.ok(results.every((r) => /not on the public internet/.test(r.reason ?? "")));
    assert.deepEqual(sent, []);
    assert.deepEqual(web.requests, []);
  });
});

Deno.test("fetchAll() reaches loopback when private networks are allowed", async () => {
  await withWeb(async (web) => {
    const [page] = await fetchAll([`${web.origin}/fault/delay?ms=1`], {
      ...FAST,
      allowPrivateNetwork: true,
    }, { fetch, resolveDns: () => Promise.reject(new Error("no DNS")), now: Date.now });
    assert.equal(page?.status, "ok");
    assert.equal(page?.contentType, "text/html");
    assert.equal(page?.charset, "utf-8");
  });
});

Deno.test("fetchAll() decodes pages in legacy charsets", async () => {
  await withWeb(async (web) => {
    const cases: [string, string, string][] = [
      ["windows-1252.html", "windows-1252", "“Naïve” résumé — costs 5 €"],
      ["iso-8859-2.html", "iso-8859-2", "Zażółć gęślą jaźń"],
      ["shift_jis.html", "shift_jis", "東京は日本の首都です。"],
      ["gbk.html", "gbk", "欢迎访问，这是简体中文。"],
      ["big5.html", "big5", "歡迎光臨"],
      ["utf-16le-bom.html", "utf-16le", "Ünïcödé text — 日本語"],
      ["undeclared-1252.html", "windows-1252", "“Smart quotes”"],
    ];
    const urls = cases.map(([name]) => `${PUBLIC}/charset/${name}`);
    const results = await fetchAll(urls, FAST, internet(web));
    for (const [i, [name, charset, text]] of cases.entries()) {
      assert.equal(results[i]?.status, "ok", name);
      assert.equal(results[i]?.charset, charset, name);
      assert.ok(results[i]?.body?.includes(text), name);
    }
  });
});

Deno.test("fetchAll() sends validators and reports a 304 as not_modified", async () => {
  await withWeb(async (web) => {
    const url = `${PUBLIC}/fault/etag`;
    const [first] = await fetchAll([url], FAST, internet(web));
    assert.equal(first?.status, "ok");
    assert.deepEqual(first?.validators, {
      etag: '"v1"',
      lastModified: "Wed, 01 Jan 2025 00:00:00 GMT",
    });
    const [again] = await fetchAll([url], {
      ...FAST,
      validators: { [url]: first!.validators! },
    }, internet(web));
    assert.equal(again?.status, "not_modified");
    assert.equal(again?.httpStatus, 304);
    assert.equal(again?.body, undefined);
    const [byDate] = await fetchAll([url], {
      ...FAST,
      validators: { [url]: { lastModified: "Thu, 02 Jan 2025 00:00:00 GMT" } },
    }, internet(web));
    assert.equal(byDate?.status, "not_modified");
  });
});

Deno.test("fetchAll() stops at the overall deadline", async () => {
  await withWeb(async (web) => {
    const [page] = await fetchAll([`${PUBLIC}/fault/hang`], {
      timeoutMs: 10_000,
      deadlineMs: 300,
    }, internet(web));
    assert.equal(page?.status, "timeout");
    assert.match(page?.reason ?? "", /Overall deadline of 300 ms reached/);
  });
});

Deno.test("fetchAll() gives up pending pages when the caller aborts", async () => {
  await withWeb(async (web) => {
    const stop = new AbortController();
    const results = await fetchAll([`${PUBLIC}/fault/hang`, `${PUBLIC}/fault/delay?ms=1`], {
      timeoutMs: 10_000,
      signal: stop.signal,
      onResult: () => stop.abort(),
    }, internet(web));
    assert.deepEqual(results.map((r) => r.status), ["timeout", "ok"]);
    assert.equal(results[0]?.reason, "Cancelled before the page arrived");
  });
});

Deno.test("fetchAll() keeps the per-host limit without charging queue time to the timeout", async () => {
  let active = 0;
  let most = 0;
  const counting: Route = async (_req, url) => {
    if (url.pathname !== "/count") return undefined;
    most = Math.max(most, ++active);
    await new Promise((resolve) => setTimeout(resolve, 150));
    active--;
    return new Response("<p>counted</p>", { headers: { "content-type": "text/html" } });
  };
  await withWeb(async (web) => {
    const urls = Array.from({ length: 6 }, (_, i) => `${PUBLIC}/count?i=${i}`);
    const results = await fetchAll(urls, { timeoutMs: 400, perHostLimit: 2 }, internet(web));
    assert.deepEqual(results.map((r) => r.status), urls.map(() => "ok"));
    assert.equal(most, 2);
  }, [counting, ...DEFAULT_ROUTES]);
});

Deno.test("fetchAll() sends its User-Agent and Accept headers", async () => {
  const seen: Headers[] = [];
  const echo: Route = (req, url) => {
    if (url.pathname !== "/echo") return undefined;
    seen.push(req.headers);
    return new Response("<p>hi</p>", { headers: { "content-type": "text/html" } });
  };
  await withWeb(async (web) => {
    await fetchAll([`${PUBLIC}/echo`], FAST, internet(web));
    await fetchAll([`${PUBLIC}/echo`], { ...FAST, userAgent: "Custom/1.0" }, internet(web));
    assert.equal(seen[0]?.get("user-agent"), DEFAULT_FETCH_OPTIONS.userAgent);
    assert.match(seen[0]?.get("accept") ?? "", /text\/html/);
    assert.equal(seen[1]?.get("user-agent"), "Custom/1.0");
  }, [echo, ...DEFAULT_ROUTES]);
});

Deno.test("fetchAll() explains network failures in plain words", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = listener.addr.port;
  listener.close();
  const dnsFailure: typeof fetch = () =>
    Promise.reject(
      new TypeError("fetch failed", {
        cause: new Error(
          "error sending request for url (http://gone.example/): client error (Connect): dns error: failed to lookup address information: Name or service not known",
        ),
      }),
    );
  const local = { ...FAST, allowPrivateNetwork: true };
  const deps = { fetch, resolveDns: () => Promise.resolve([]), now: Date.now };
  const [refused] = await fetchAll([`http://127.0.0.1:${closedPort}/`], local, deps);
  assert.equal(refused?.status, "http_error");
  assert.equal(refused?.reason, `Connection refused by 127.0.0.1:${closedPort}`);
  const [unknown] = await fetchAll(["http://gone.example/"], local, { ...deps, fetch: dnsFailure });
  assert.equal(unknown?.reason, "Cannot resolve host gone.example");
});

Deno.test("fetchAll() survives a progress callback that throws", async () => {
  await withWeb(async (web) => {
    const results = await fetchAll([`${PUBLIC}/fault/delay?ms=1`], {
      ...FAST,
      onResult: () => {
        throw new Error("progress printer broke");
      },
    }, internet(web));
    assert.equal(results[0]?.status, "ok");
  });
});

Deno.test("batchDeadline() follows the timeout with room to spare, unless one is given", () => {
  for (const timeoutMs of [100, 1000, 8000, 30_000, 120_000]) {
    assert.ok(batchDeadline(timeoutMs) >= timeoutMs + DEADLINE_MARGIN_MS, `${timeoutMs}`);
  }
  assert.equal(batchDeadline(8000), 20_000, "the default timeout keeps its 20 s deadline");
  assert.ok(batchDeadline(30_000) > 30_000 + DEADLINE_MARGIN_MS);
  assert.equal(batchDeadline(30_000, 45_000), 45_000);
});

Deno.test("fetchAll() without a deadline lets a slow page use its whole timeout", async () => {
  await withWeb(async (web) => {
    const [page] = await fetchAll([`${PUBLIC}/fault/hang`], { timeoutMs: 300 }, internet(web));
    assert.equal(page?.status, "timeout");
    assert.match(
      page?.reason ?? "",
      /Timed out after 300 ms/,
      "the page's own timeout, not a deadline",
    );
  });
});
