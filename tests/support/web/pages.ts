/**
 * Pages from `fixtures/pages/` under `/pages/…`, pages in legacy charsets
 * under `/charset/…`, and faults on demand under `/fault/…`:
 *
 * - `delay?ms=N` answers after N ms; `hang` never answers (until the web closes).
 * - `slow?chunks=N&every=MS` sends headers at once, then the body a chunk at a time.
 * - `reset` sends part of a body, then breaks the connection.
 * - `status/CODE` answers with that status; `empty` is a 200 with no body.
 * - `captcha?status=CODE&header=1` is a Cloudflare-style challenge page
 *   (503 by default; `header=1` adds `cf-mitigated: challenge`).
 * - `redirect?n=N` redirects N times, then serves a page; `loop` redirects a→b→a;
 *   `redirect-to?url=U` redirects to U (e.g. a private address); `secret` is
 *   what a private target would serve — tests check it was never requested.
 * - `huge` is an 11 MB page streamed without a length; `huge?length=1` declares it.
 * - `gzip-bomb` is a small gzip body that expands to 12 MB.
 * - `type/TYPE/SUBTYPE` serves bytes with that Content-Type; `type/none` without one.
 * - `etag` answers 304 to a matching If-None-Match or If-Modified-Since;
 *   `etag?page=caching` serves `articles/caching.html` (headings, a table, code, links, a site name).
 * @module
 */
import type { FixtureWebInfo, Route } from "../fixture_web.ts";

const FIXTURES = new URL("../../../fixtures/pages/", import.meta.url);

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  png: "image/png",
};

/** Content-Type each `fixtures/pages/charset/` page is served with; others get `text/html`. */
const CHARSET_TYPES: Record<string, string> = {
  "windows-1252.html": "text/html; charset=windows-1252",
  "iso-8859-2.html": "text/html; charset=ISO-8859-2",
  "utf-8-bom.html": "text/html; charset=windows-1252",
};

const MB = 1024 * 1024;
const HUGE_BYTES = 11 * MB;
const BOMB_BYTES = 12 * MB;
const CHUNK = new TextEncoder().encode(`<p>${"filler text ".repeat(5000)}</p>\n`);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const ETAG = '"v1"';
/** Longest timer delay; the web closing ends the wait sooner. */
const HANG_MS = 2 ** 31 - 1;
const LAST_MODIFIED = "Wed, 01 Jan 2025 00:00:00 GMT";

function html(title: string, status = 200, headers: Record<string, string> = {}): Response {
  const body = `<!DOCTYPE html><html><head><title>${title}</title></head>` +
    `<body><h1>${title}</h1><p>${title} — a page of the fixture web.</p></body></html>`;
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", ...headers },
  });
}

function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } });
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** A body that sends `chunks` copies of `chunk`, `every` ms apart, until cancelled or closed. */
function trickle(chunk: Uint8Array, chunks: number, every: number, web: FixtureWebInfo) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent > 0 && every > 0) await wait(every, web.closing);
      if (sent >= chunks || web.closing.aborted) return controller.close();
      sent++;
      controller.enqueue(chunk);
    },
  });
}

async function gzipBomb(): Promise<Uint8Array<ArrayBuffer>> {
  const zeros = new TextEncoder().encode(
    `<html><body><p>${"a".repeat(BOMB_BYTES)}</p></body></html>`,
  );
  const gzip = new Blob([zeros]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(gzip).arrayBuffer());
}

function captcha(url: URL): Response {
  const status = Number(url.searchParams.get("status") ?? "503");
  const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" };
  if (url.searchParams.get("header") === "1") headers["cf-mitigated"] = "challenge";
  const body = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>` +
    `<div id="cf-challenge-running">Checking your browser before accessing the site.</div>` +
    `<script>window._cf_chl_opt = { cType: "managed" };</script></body></html>`;
  return new Response(body, { status, headers });
}

/** A real article with validators, so a 304 has something worth reusing. */
async function conditional(req: Request, url: URL): Promise<Response> {
  const validators = { etag: ETAG, "last-modified": LAST_MODIFIED };
  const since = Date.parse(req.headers.get("if-modified-since") ?? "");
  if (req.headers.get("if-none-match") === ETAG || since >= Date.parse(LAST_MODIFIED)) {
    return new Response(null, { status: 304, headers: validators });
  }
  const page = url.searchParams.get("page") === "caching" ? "caching" : "http2";
  const body = await Deno.readFile(new URL(`articles/${page}.html`, FIXTURES));
  return new Response(body, {
    headers: { "content-type": "text/html; charset=utf-8", ...validators },
  });
}

/** Answers `/fault/<name>` with the fault it names. */
const serveFault: Route = async (req, url, web) => {
  if (!url.pathname.startsWith("/fault/")) return undefined;
  const name = url.pathname.slice("/fault/".length);
  const param = (key: string, fallback: number) => Number(url.searchParams.get(key) ?? fallback);
  if (name === "delay") {
    await wait(param("ms", 100), web.closing);
    return html("Delayed page");
  }
  if (name === "hang") {
    await wait(HANG_MS, web.closing);
    return new Response("closed", { status: 503 });
  }
  if (name === "slow") {
    const body = trickle(
      new TextEncoder().encode("<p>slow</p>\n"),
      param("chunks", 50),
      param("every", 100),
      web,
    );
    return new Response(body, { headers: { "content-type": "text/html" } });
  }
  if (name === "reset") {
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        controller.enqueue(new TextEncoder().encode("<html><body><p>partial"));
        await wait(20, web.closing);
        controller.error(new Error("connection reset by the fixture web"));
      },
    });
    return new Response(body, { headers: { "content-type": "text/html" } });
  }
  if (name.startsWith("status/")) {
    const code = Number(name.slice("status/".length));
    return html(`Status ${code}`, code);
  }
  if (name === "empty") return new Response("", { headers: { "content-type": "text/html" } });
  if (name === "captcha") return captcha(url);
  if (name === "redirect") {
    const n = param("n", 1);
    return n > 0 ? redirect(`/fault/redirect?n=${n - 1}`) : html("Arrived after redirects");
  }
  if (name === "loop") {
    return redirect(`/fault/loop?step=${url.searchParams.get("step") === "a" ? "b" : "a"}`, 301);
  }
  if (name === "redirect-to") return redirect(url.searchParams.get("url") ?? "/", 307);
  if (name === "secret") return html("Internal secret");
  if (name === "huge") {
    const chunks = Math.ceil(HUGE_BYTES / CHUNK.length);
    if (url.searchParams.get("length") !== "1") {
      return new Response(trickle(CHUNK, chunks, 0, web), {
        headers: { "content-type": "text/html" },
      });
    }
    const body = new Uint8Array(chunks * CHUNK.length);
    for (let i = 0; i < chunks; i++) body.set(CHUNK, i * CHUNK.length);
    return new Response(body, { headers: { "content-type": "text/html" } });
  }
  if (name === "gzip-bomb") {
    return new Response(await gzipBomb(), {
      headers: { "content-type": "text/html", "content-encoding": "gzip" },
    });
  }
  if (name === "type/none") return new Response(PNG);
  if (name.startsWith("type/")) {
    return new Response(PNG, { headers: { "content-type": name.slice("type/".length) } });
  }
  if (name === "etag") return await conditional(req, url);
  return undefined;
};

/** Serves `fixtures/pages/charset/<name>` at `/charset/<name>` with its own Content-Type. */
const serveCharset: Route = async (_req, url) => {
  if (!url.pathname.startsWith("/charset/")) return undefined;
  const name = decodeURIComponent(url.pathname.slice("/charset/".length));
  if (name.includes("..") || name.includes("/")) return new Response("bad path", { status: 400 });
  try {
    const body = await Deno.readFile(new URL(`charset/${name}`, FIXTURES));
    return new Response(body, { headers: { "content-type": CHARSET_TYPES[name] ?? "text/html" } });
  } catch {
    return new Response("no such page", { status: 404 });
  }
};

/** Serves `fixtures/pages/<name>` at `/pages/<name>`. */
const servePage: Route = async (_req, url) => {
  if (!url.pathname.startsWith("/pages/")) return undefined;
  const name = decodeURIComponent(url.pathname.slice("/pages/".length));
  if (name.includes("..")) return new Response("bad path", { status: 400 });
  try {
    const body = await Deno.readFile(new URL(name, FIXTURES));
    const ext = name.split(".").pop() ?? "";
    return new Response(body, {
      headers: { "content-type": TYPES[ext] ?? "application/octet-stream" },
    });
  } catch {
    return new Response("no such page", { status: 404 });
  }
};

/** Page routes in the order they are tried. */
export const pageRoutes: Route[] = [servePage, serveCharset, serveFault];
