import assert from "node:assert/strict";
import { extractFetched, type PageRead } from "../../src/pipeline/read.ts";
import {
  BROWSER_HINT,
  looksLikeShell,
  needsRender,
  renderIfNeeded,
} from "../../src/pipeline/render_step.ts";
import { openRenderer } from "../../src/pipeline/render.ts";
import { systemResolveDns } from "../../src/pipeline/guard.ts";

function read(body: string, contentType = "text/html"): PageRead {
  const url = "https://example.com/app";
  return extractFetched({
    url,
    finalUrl: url,
    status: "ok",
    contentType,
    body,
    redirects: [],
    elapsedMs: 1,
  });
}

const SHELL =
  `<html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>`;
const ARTICLE =
  `<html><head><title>Herons</title><script src="/a.js"></script></head><body><article>${
    "<p>Grey herons nest in colonies high in tall trees near water, returning every spring.</p>"
      .repeat(8)
  }</article></body></html>`;

Deno.test("looksLikeShell() tells a script-built shell from an article with scripts", () => {
  assert.equal(looksLikeShell(read(SHELL)), true);
  assert.equal(looksLikeShell(read(ARTICLE)), false);
  assert.equal(looksLikeShell(read("just text", "text/plain")), false);
});

Deno.test("needsRender() follows the mode: never, auto (shells only), always (every HTML page)", () => {
  assert.equal(needsRender(read(SHELL), "never"), false);
  assert.equal(needsRender(read(SHELL), "auto"), true);
  assert.equal(needsRender(read(ARTICLE), "auto"), false);
  assert.equal(needsRender(read(ARTICLE), "always"), true);
  assert.equal(needsRender(read("{}", "application/json"), "always"), false);
  const revalidated = { ...read(SHELL), revalidated: true };
  assert.equal(needsRender(revalidated, "always"), false);
});

Deno.test("renderIfNeeded() without a browser keeps the page and says how to configure one", async () => {
  const page = await renderIfNeeded(read(SHELL), { mode: "auto" });
  assert.equal(page.status, "empty");
  assert.ok(page.reason?.includes(BROWSER_HINT), page.reason);
  assert.equal(page.rendered, undefined);
  const ok = await renderIfNeeded(read(ARTICLE), { mode: "always" });
  assert.equal(ok.status, "ok");
  assert.equal(ok.reason, undefined);
});

Deno.test("renderIfNeeded() with an unreachable browser keeps what the fetch found and why", async () => {
  const renderer = openRenderer({
    browserUrl: "http://127.0.0.1:9",
    allowPrivateNetwork: true,
    resolveDns: systemResolveDns,
    fetch: globalThis.fetch,
    now: () => Date.now(),
    timeoutMs: 2000,
  });
  try {
    const shell = await renderIfNeeded(read(SHELL), { mode: "auto", renderer });
    assert.equal(shell.status, "empty");
    assert.match(
      shell.reason ?? "",
      /rendering failed: http_error \(browser at http:\/\/127\.0\.0\.1:9/,
    );
    const article = await renderIfNeeded(read(ARTICLE), { mode: "always", renderer });
    assert.equal(article.status, "ok");
    assert.match(article.extracted?.article.text ?? "", /Grey herons/);
  } finally {
    await renderer.close();
  }
});
