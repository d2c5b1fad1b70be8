import assert from "node:assert/strict";
import type { FetchDeps } from "../../src/pipeline/fetch.ts";
import {
  checkRobots,
  DEFAULT_ROBOTS_CONFIG,
  groupsFor,
  recordOf,
  type RobotsDeps,
  robotsFor,
  verdict,
} from "../../src/pipeline/robots.ts";
import type { FetchResult } from "../../src/pipeline/types.ts";
import { kvRobots } from "../../src/store/kv/robots.ts";
import { type FixtureWeb, type Route, startFixtureWeb } from "../support/fixture_web.ts";
import { FIXTURE_ROBOTS } from "../support/web/robots.ts";

const NOW = Date.UTC(2026, 0, 1);

function fetched(partial: Partial<FetchResult>): FetchResult {
  return {
    url: "https://a.example/robots.txt",
    finalUrl: "https://a.example/robots.txt",
    status: "ok",
    redirects: [],
    elapsedMs: 1,
    ...partial,
  };
}

Deno.test("groupsFor() keeps only Quarry's group and *, without comments or sitemaps", () => {
  const rules = groupsFor(
    FIXTURE_ROBOTS +
      "\nSitemap: https://a.example/sitemap.xml\nUser-agent: quarry/2.0\nDisallow: /x\n",
  );
  assert.doesNotMatch(rules, /OtherBot|Sitemap|#/);
  assert.match(rules, /User-agent: Quarry\nDisallow: \/pages\/articles\/http2\.html/);
  assert.match(rules, /User-agent: \*\nDisallow: \/pages\/articles\/link-list\.html/);
  assert.match(rules, /User-agent: quarry\/2\.0\nDisallow: \/x/);
});

Deno.test("recordOf() follows RFC 9309: 4xx allows all, 5xx and unreachable disallow all", () => {
  assert.equal(recordOf(fetched({ status: "http_error", httpStatus: 404 }), NOW).kind, "allow_all");
  assert.equal(recordOf(fetched({ status: "blocked", httpStatus: 403 }), NOW).kind, "allow_all");
  assert.equal(
    recordOf(fetched({ status: "http_error", httpStatus: 503 }), NOW).kind,
    "disallow_all",
  );
  assert.equal(
    recordOf(fetched({ status: "http_error", reason: "Connection refused by a.example" }), NOW)
      .kind,
    "disallow_all",
  );
  assert.equal(recordOf(fetched({ status: "timeout" }), NOW).kind, "disallow_all");
  assert.equal(recordOf(fetched({ status: "private_address" }), NOW).kind, "disallow_all");
  const rules = recordOf(fetched({ body: FIXTURE_ROBOTS, httpStatus: 200 }), NOW);
  assert.equal(rules.kind, "rules");
});

Deno.test("verdict() looks rules up under the product token Quarry", () => {
  const record = recordOf(fetched({ body: FIXTURE_ROBOTS, httpStatus: 200 }), NOW);
  const at = (path: string) => verdict(record, `https://a.example${path}`).allowed;
  assert.equal(at("/pages/articles/http2.html"), false);
  assert.equal(at("/private/notes.html"), false);
  assert.equal(at("/pages/articles/link-list.html"), true, "the * group is not Quarry's");
  assert.equal(at("/pages/articles/http3.html"), true);
  const none = verdict(
    { kind: "disallow_all", why: "robots.txt answered HTTP 500", fetchedAt: 0 },
    "https://a.example/",
  );
  assert.equal(none.allowed, false);
  assert.match((none as { reason: string }).reason, /HTTP 500/);
});

/** `robots.test` is a public host routed to the fixture web, so the SSRF guard stays on. */
function deps(web: FixtureWeb, kv: Deno.Kv): RobotsDeps {
  const origin = new URL(web.origin);
  const net: FetchDeps = {
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.hostname === "robots.test") url.host = origin.host;
      return fetch(url, init);
    },
    resolveDns: (host) =>
      host === "robots.test"
        ? Promise.resolve(["93.184.216.34"])
        : host === "intranet.test"
        ? Promise.resolve(["10.0.0.8"])
        : Promise.reject(new Error("NXDOMAIN")),
    now: () => NOW,
  };
  return {
    ...net,
    cache: kvRobots(kv, () => NOW),
    fetchOptions: { userAgent: "Quarry/test", allowPrivateNetwork: false },
  };
}

async function withRobotsWeb(
  routes: Route[],
  run: (web: FixtureWeb, kv: Deno.Kv) => Promise<void>,
): Promise<void> {
  const web = await startFixtureWeb(routes);
  const dir = await Deno.makeTempDir({ prefix: "quarry-robots-" });
  const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
  try {
    await run(web, kv);
  } finally {
    kv.close();
    await web.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const text = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/plain" } });
const redirect = (to: string) => new Response(null, { status: 301, headers: { location: to } });

Deno.test("robotsFor() follows up to five redirects and disallows all past them", async () => {
  const hops: Route = (_req, url) => {
    const m = /^\/r(\d+)\/robots\.txt$/.exec(url.pathname);
    if (url.pathname === "/robots.txt") return redirect("/r1/robots.txt");
    if (!m) return undefined;
    const n = Number(m[1]);
    return n < Number(url.searchParams.get("last") ?? 5)
      ? redirect(`/r${n + 1}/robots.txt${url.search}`)
      : text("User-agent: *\nDisallow: /secret\n");
  };
  await withRobotsWeb([hops], async (web, kv) => {
    const five = await robotsFor("http://robots.test", deps(web, kv));
    assert.equal(five.kind, "rules", JSON.stringify(five));
    assert.equal(verdict(five, "http://robots.test/secret").allowed, false);
  });
  const tooMany: Route = (_req, url) => {
    const m = /^\/r(\d+)\/robots\.txt$/.exec(url.pathname);
    if (url.pathname === "/robots.txt") return redirect("/r1/robots.txt");
    return m ? redirect(`/r${Number(m[1]) + 1}/robots.txt`) : undefined;
  };
  await withRobotsWeb([tooMany], async (web, kv) => {
    const record = await robotsFor("http://robots.test", deps(web, kv));
    assert.equal(record.kind, "disallow_all");
    assert.equal(web.requests.filter((r) => r.endsWith("robots.txt")).length, 6);
  });
});

Deno.test("robotsFor() sends the robots.txt fetch through the SSRF guard", async () => {
  const toIntranet: Route = (_req, url) =>
    url.pathname === "/robots.txt" ? redirect("http://intranet.test/robots.txt") : undefined;
  await withRobotsWeb([toIntranet], async (web, kv) => {
    const record = await robotsFor("http://robots.test", deps(web, kv));
    assert.equal(record.kind, "disallow_all", "a robots.txt that leads inside is unreachable");
  });
});

Deno.test("robotsFor() reads the first 500 KiB of a larger robots.txt", async () => {
  const huge: Route = (_req, url) =>
    url.pathname === "/robots.txt"
      ? text(
        "User-agent: *\nDisallow: /early\n" + `# ${"x".repeat(1000)}\n`.repeat(700) +
          "Disallow: /late\n",
      )
      : undefined;
  await withRobotsWeb([huge], async (web, kv) => {
    const record = await robotsFor("http://robots.test", deps(web, kv));
    assert.equal(record.kind, "rules");
    assert.equal(verdict(record, "http://robots.test/early").allowed, false);
    assert.equal(verdict(record, "http://robots.test/late").allowed, true, "past the cap");
  });
});

Deno.test("checkRobots() asks each origin once and keeps the answer in KV", async () => {
  await withRobotsWeb([
    (_req, url) => url.pathname === "/robots.txt" ? text(FIXTURE_ROBOTS) : undefined,
  ], async (web, kv) => {
    const urls = [
      "http://robots.test/pages/articles/http2.html",
      "http://robots.test/pages/articles/http3.html",
      "http://robots.test/private/notes.html",
    ];
    const refused = await checkRobots(urls, deps(web, kv));
    assert.deepEqual([...refused.keys()], [urls[0], urls[2]]);
    await checkRobots(urls, deps(web, kv));
    assert.deepEqual(web.requests, ["/robots.txt"], "asked once; the second check used KV");
    const stored = await kv.get(["robots", "http://robots.test"]);
    assert.ok(stored.value, 'kept under ["robots", origin]');
  });
});

Deno.test("robotsFor() keeps an unreachable origin's answer for a shorter time", async () => {
  await withRobotsWeb([
    (_req, url) => url.pathname === "/robots.txt" ? text("down", 503) : undefined,
  ], async (web, kv) => {
    let now = NOW;
    const d = { ...deps(web, kv), cache: kvRobots(kv, () => now) };
    assert.equal((await robotsFor("http://robots.test", d)).kind, "disallow_all");
    now += DEFAULT_ROBOTS_CONFIG.errorTtlMs + 1;
    await robotsFor("http://robots.test", d);
    assert.equal(web.requests.length, 2, "asked again once the short TTL ran out");
  });
});
