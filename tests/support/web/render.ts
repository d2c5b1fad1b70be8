/**
 * Pages that need a browser, under `/js/…`:
 *
 * - `shell?topic=T` is a JavaScript shell: an empty `#root` and a script that
 *   fetches `/js/article.json?topic=T` and writes the article into the page.
 * - `article.json?topic=T` is that article's data.
 * - `stuck` is a shell whose blocking script never arrives (the page never loads).
 * - `attack?target=ORIGIN` carries a readable article and tries to reach
 *   ORIGIN (a private address) every way a page can: iframe, script,
 *   stylesheet, image, font, XHR, fetch, EventSource, beacon, a dedicated
 *   worker that fetches, a WebSocket, a redirect, and `file:`/`data:`/`chrome:`
 *   navigations. Tests count the requests that arrive at ORIGIN: none may.
 * - `worker.js?target=ORIGIN` is that worker.
 * - `serp/html/` is a DuckDuckGo-shaped SERP (POST) listing two shells and
 *   a static article: set `QUARRY_DDG_URL` to `<origin>/js/serp`.
 * @module
 */
import type { Route } from "../fixture_web.ts";
import { researchSerp } from "./research.ts";

/** Sentences of the article a shell builds; tests look for them. */
export function shellArticle(topic: string): { title: string; paragraphs: string[] } {
  return {
    title: `Field notes on ${topic}`,
    paragraphs: [
      `The ${topic} survey counted 412 nesting pairs along the northern ridge in the spring.`,
      `Observers walked the same transects each morning, so counts from different years compare.`,
      `Most ${topic} pairs nested within two hundred metres of running water, the survey found.`,
      `Numbers fell in the two seasons after the late frost and recovered within five years.`,
    ],
  };
}

function page(body: string, head = ""): Response {
  return new Response(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>App</title>${head}</head>` +
      `<body>${body}</body></html>`,
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );
}

const SHELL_SCRIPT = `
fetch("/js/article.json" + location.search).then((r) => r.json()).then((a) => {
  document.title = a.title;
  const root = document.getElementById("root");
  const article = document.createElement("article");
  const h1 = document.createElement("h1");
  h1.textContent = a.title;
  article.append(h1);
  for (const text of a.paragraphs) {
    const p = document.createElement("p");
    p.textContent = text;
    article.append(p);
  }
  root.append(article);
});`;

function attack(target: string, origin: string): Response {
  const t = JSON.stringify(target);
  const article = shellArticle("grey herons");
  const body = `<article><h1>${article.title}</h1>${
    article.paragraphs.map((p) => `<p>${p}</p>`).join("")
  }</article>
<iframe src="${target}/iframe"></iframe>
<iframe src="${origin}/fault/redirect-to?url=${
    encodeURIComponent(target + "/redirected-frame")
  }"></iframe>
<iframe src="file:///etc/passwd"></iframe>
<iframe src="chrome://version"></iframe>
<iframe src="data:text/html,<script>fetch(${
    encodeURIComponent(t)
  }+'/from-data-frame')</script>"></iframe>
<img src="${target}/image.png">
<script src="${target}/script.js"></script>
<script src="${origin}/fault/redirect-to?url=${
    encodeURIComponent(target + "/redirected-script")
  }"></script>
<script>
const T = ${t};
const x = new XMLHttpRequest(); x.open("GET", T + "/xhr"); x.send();
fetch(T + "/fetch").catch(() => {});
fetch(T + "/fetch-post", { method: "POST", body: "x", mode: "no-cors" }).catch(() => {});
try { new EventSource(T + "/events"); } catch {}
try { navigator.sendBeacon(T + "/beacon", "x"); } catch {}
try { new WebSocket(T.replace("http", "ws") + "/socket"); } catch {}
try {
  // A pristine WebSocket from a fresh same-origin frame.
  const f = document.createElement("iframe");
  document.body.append(f);
  new f.contentWindow.WebSocket(T.replace("http", "ws") + "/frame-socket");
  new f.contentWindow.SharedWorker("/js/worker.js?target=" + encodeURIComponent(T) + "&frame=1");
} catch {}
try { new Worker("/js/worker.js?target=" + encodeURIComponent(T)); } catch {}
try { new SharedWorker("/js/worker.js?target=" + encodeURIComponent(T) + "&shared=1"); } catch {}
const font = new FontFace("x", "url(" + T + "/font.woff2)"); font.load().catch(() => {});
const css = document.createElement("link"); css.rel = "stylesheet"; css.href = T + "/style.css";
document.head.append(css);
const video = document.createElement("video"); video.src = T + "/video.mp4"; document.body.append(video);
try { window.open(T + "/popup"); } catch {}
const form = document.createElement("form"); form.method = "POST"; form.action = T + "/form";
form.target = "_blank"; document.body.append(form); try { form.submit(); } catch {}
setTimeout(() => { location.href = T + "/navigated"; }, 300);
</script>`;
  return page(body);
}

function worker(target: string): Response {
  const t = JSON.stringify(target);
  return new Response(
    `fetch("/js/worker-ping").catch(() => {});
fetch(${t} + "/from-worker").catch(() => {});
try { new Worker("/js/worker.js?target=" + encodeURIComponent(${t}) + "&nested=1"); } catch {}
try { new WebSocket(${t}.replace("http", "ws") + "/worker-socket"); } catch {}
try { importScripts(${t} + "/imported.js"); } catch {}`,
    { headers: { "content-type": "text/javascript" } },
  );
}

/** The shells the `/js/serp` SERP lists. */
export const SHELL_TOPICS = ["ospreys", "grey herons"] as const;

/** The `/js/…` routes. */
export const renderRoutes: Route[] = [
  (req, url, web) => {
    if (url.pathname !== "/js/serp/html/" || req.method !== "POST") return undefined;
    const entries = SHELL_TOPICS.map((topic) => ({
      path: `/js/shell?topic=${encodeURIComponent(topic)}`,
      title: `Field notes on ${topic}`,
      snippet: `How many ${topic} pairs nested along the ridge, counted each spring.`,
    }));
    return new Response(researchSerp(web.origin, entries), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  },
  (_req, url, web) => {
    if (!url.pathname.startsWith("/js/")) return undefined;
    const name = url.pathname.slice("/js/".length);
    const topic = url.searchParams.get("topic") ?? "grey herons";
    const target = url.searchParams.get("target") ?? "http://127.0.0.2:9";
    switch (name) {
      case "shell":
        return page(
          `<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>`,
          `<script defer src="/js/app.js"></script>`,
        );
      case "app.js":
        return new Response(SHELL_SCRIPT, { headers: { "content-type": "text/javascript" } });
      case "article.json":
        return Response.json(shellArticle(topic));
      case "stuck":
        return page(`<div id="root"></div>`, `<script src="/fault/hang"></script>`);
      case "attack":
        return attack(target, web.origin);
      case "worker.js":
        return worker(target);
    }
    return undefined;
  },
];
