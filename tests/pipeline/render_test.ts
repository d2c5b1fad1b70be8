import assert from "node:assert/strict";
import { openRenderer, type RendererOptions } from "../../src/pipeline/render.ts";
import { renderIfNeeded } from "../../src/pipeline/render_step.ts";
import { extractFetched } from "../../src/pipeline/read.ts";
import { systemResolveDns } from "../../src/pipeline/guard.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { openTabs, startPrivateTarget, testBrowser } from "../support/browser.ts";
import { shellArticle } from "../support/web/render.ts";

const browser = await testBrowser();
const ignore = browser === undefined;

function options(origin: string, extra: Partial<RendererOptions> = {}): RendererOptions {
  return {
    browserUrl: browser!.url,
    // The guard is on: only the fixture web's own origin is let through.
    allowPrivateNetwork: false,
    allowOrigins: [origin],
    resolveDns: systemResolveDns,
    fetch: globalThis.fetch,
    now: () => Date.now(),
    timeoutMs: 10_000,
    ...extra,
  };
}

Deno.test({
  name: "renderIfNeeded() renders a JavaScript shell and extracts the article it builds",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    const renderer = openRenderer(options(web.origin));
    try {
      const url = `${web.origin}/js/shell?topic=ospreys`;
      const body = await (await fetch(url)).text();
      const plain = extractFetched({
        url,
        finalUrl: url,
        status: "ok",
        contentType: "text/html",
        body,
        redirects: [],
        elapsedMs: 1,
      });
      assert.equal(plain.status, "empty");
      const page = await renderIfNeeded(plain, { mode: "auto", renderer });
      assert.equal(page.status, "ok", page.reason);
      assert.equal(page.rendered, true);
      const article = shellArticle("ospreys");
      assert.equal(page.extracted?.article.title, article.title);
      assert.match(page.extracted?.article.text ?? "", /counted 412 nesting pairs/);
      assert.ok(web.requests.some((r) => r.startsWith("/js/article.json")));
    } finally {
      await renderer.close();
      await web.close();
    }
  },
});

Deno.test({
  name: "render: no request of the page reaches a private address, by any route",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    const target = startPrivateTarget();
    const renderer = openRenderer(options(web.origin));
    try {
      const url = `${web.origin}/js/attack?target=${encodeURIComponent(target.origin)}`;
      const outcome = await renderer.render(url);
      assert.ok(outcome.ok, outcome.ok ? "" : outcome.reason);
      assert.match(outcome.html, /counted 412 nesting pairs/);
      // The page's own worker and redirects did load from the fixture web…
      assert.ok(web.requests.some((r) => r.startsWith("/js/worker.js")), web.requests.join(" "));
      // The worker ran (it reached the fixture web), so its refused requests were really tried.
      assert.ok(web.requests.includes("/js/worker-ping"), web.requests.join(" "));
      assert.ok(web.requests.some((r) => r.startsWith("/fault/redirect-to")));
      // …and nothing of it arrived at the private target.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(target.hits, []);
    } finally {
      await renderer.close();
      await target.close();
      await web.close();
    }
  },
});

Deno.test({
  name: "render: a page on a private address, or not http(s), is refused",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    const target = startPrivateTarget();
    const renderer = openRenderer(options(web.origin));
    try {
      const direct = await renderer.render(`${target.origin}/page`);
      assert.equal(direct.ok, false);
      assert.equal(!direct.ok && direct.status, "private_address");
      const hop = await renderer.render(
        `${web.origin}/fault/redirect-to?url=${encodeURIComponent(`${target.origin}/hop`)}`,
      );
      assert.equal(!hop.ok && hop.status, "private_address");
      for (const url of ["file:///etc/passwd", "data:text/html,<p>x</p>", "chrome://version"]) {
        const refused = await renderer.render(url);
        assert.equal(refused.ok, false, url);
        assert.equal(!refused.ok && refused.status, "private_address", url);
      }
      assert.deepEqual(target.hits, []);
    } finally {
      await renderer.close();
      await target.close();
      await web.close();
    }
  },
});

Deno.test({
  name: "render: 50 pages, hanging ones included, stay within the tab limit and leave no tab",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    const before = (await openTabs(browser!)).length;
    const renderer = openRenderer(options(web.origin, { maxTabs: 4, timeoutMs: 4000 }));
    try {
      const urls = Array.from(
        { length: 50 },
        (_, i) =>
          i % 10 === 3
            ? `${web.origin}/fault/hang`
            : i % 10 === 7
            ? `${web.origin}/js/stuck`
            : `${web.origin}/js/shell?topic=t${i}`,
      );
      const cancel = new AbortController();
      const outcomes = await Promise.all(
        urls.map((url, i) => renderer.render(url, i === 49 ? { signal: cancel.signal } : {})).map(
          (p, i) => {
            if (i === 49) setTimeout(() => cancel.abort(), 50);
            return p;
          },
        ),
      );
      const hanging = (i: number) => i % 10 === 3 || i % 10 === 7;
      assert.equal(outcomes.length, 50);
      assert.ok(renderer.peakTabs <= 4, `peak ${renderer.peakTabs}`);
      outcomes.forEach((o, i) => {
        if (hanging(i)) assert.equal(!o.ok && o.status, "timeout", urls[i]);
        // A shell renders, or, on a loaded machine, times out waiting: nothing else.
        else assert.ok(o.ok || o.status === "timeout", `${urls[i]}: ${JSON.stringify(o)}`);
      });
      assert.ok(outcomes.some((o) => o.ok), "some shells rendered");
      const last = outcomes[49]!;
      assert.equal(!last.ok && last.reason, "cancelled");
      assert.equal((await openTabs(browser!)).length, before);
    } finally {
      await renderer.close();
      await web.close();
    }
  },
});

Deno.test({
  name: "render: an unreachable browser is a page status with a reason, not a throw",
  async fn() {
    const renderer = openRenderer({
      browserUrl: "http://127.0.0.1:9",
      allowPrivateNetwork: true,
      resolveDns: systemResolveDns,
      fetch: globalThis.fetch,
      now: () => Date.now(),
      timeoutMs: 3000,
    });
    const outcome = await renderer.render("http://example.com/");
    assert.equal(outcome.ok, false);
    assert.match(!outcome.ok ? outcome.reason : "", /browser at http:\/\/127\.0\.0\.1:9/);
    const info = await renderer.info();
    assert.equal(info.reachable, false);
    await renderer.close();
  },
});

Deno.test({
  name: "render: a DOM over the size bound is too_large, and the tab is closed",
  ignore,
  async fn() {
    const web = await startFixtureWeb();
    const before = (await openTabs(browser!)).length;
    const renderer = openRenderer(options(web.origin, { maxHtmlChars: 500 }));
    try {
      const outcome = await renderer.render(`${web.origin}/js/shell?topic=ospreys`);
      assert.equal(!outcome.ok && outcome.status, "too_large");
      assert.match(!outcome.ok ? outcome.reason : "", /over 500/);
      assert.equal((await openTabs(browser!)).length, before);
    } finally {
      await renderer.close();
      await web.close();
    }
  },
});
