/**
 * The loopback web of `search_real_pages.ts`, run in a worker so that its
 * servers keep answering on time while the benchmark's own thread is busy
 * extracting pages: ten real pages on ten hosts, each answering after its
 * delay, and a SERP listing them (or, under `/slowest/`, the last alone).
 * @module
 */

/** What the benchmark asks for. */
export interface WebRequest {
  /** Folder of the corpus pages. */
  dir: string;
  pages: string[];
  delaysMs: number[];
}

/** What the worker answers once listening. */
export interface WebReady {
  origin: string;
  entries: { url: string; title: string }[];
}

function serp(entries: { url: string; title: string }[]): string {
  const rows = entries.map((e) =>
    `<div class="result"><h2 class="result__title"><a class="result__a" href="${e.url}">${e.title}</a></h2>` +
    `<a class="result__snippet">The history of the people and the world, ${e.title}.</a></div>`
  );
  return `<html><body><div id="links">${rows.join("")}</div></body></html>`;
}

const servers: Deno.HttpServer[] = [];

async function start({ dir, pages, delaysMs }: WebRequest): Promise<WebReady> {
  const bodies = await Promise.all(
    pages.map((name) => Deno.readFile(`${dir}/${name}/source.html`)),
  );
  const entries = pages.map((name, i) => {
    const server = Deno.serve(
      { hostname: `127.0.1.${i + 2}`, port: 0, onListen: () => {} },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, delaysMs[i]));
        return new Response(bodies[i], { headers: { "content-type": "text/html" } });
      },
    );
    servers.push(server);
    return {
      url: `http://127.0.1.${i + 2}:${server.addr.port}/${name}`,
      title: `History of the people and the world: ${name}`,
    };
  });
  const serpServer = Deno.serve(
    { hostname: "127.0.1.1", port: 0, onListen: () => {} },
    (req) =>
      new Response(
        serp(new URL(req.url).pathname.startsWith("/slowest/") ? entries.slice(-1) : entries),
        { headers: { "content-type": "text/html" } },
      ),
  );
  servers.push(serpServer);
  return { origin: `http://127.0.1.1:${serpServer.addr.port}`, entries };
}

// deno-lint-ignore no-explicit-any
const self = globalThis as any;
self.onmessage = async (event: MessageEvent<WebRequest | "stop">) => {
  if (event.data === "stop") {
    await Promise.all(servers.map((s) => s.shutdown()));
    self.postMessage("stopped");
    return;
  }
  self.postMessage(await start(event.data));
};
