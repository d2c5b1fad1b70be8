/**
 * A loopback "internet" for tests: pages from `fixtures/`, fake search
 * engines and APIs, and faults on demand. Each area of the program adds a
 * route module under `tests/support/web/` and lists it in DEFAULT_ROUTES.
 * @module
 */
import { apiRoutes } from "./web/apis.ts";
import { engineRoutes } from "./web/engines.ts";
import { hostileRoutes } from "./web/hostile.ts";
import { pageRoutes } from "./web/pages.ts";
import { renderRoutes } from "./web/render.ts";
import { pdfRoutes } from "./web/pdf.ts";
import { researchRoutes } from "./web/research.ts";
import { robotsRoutes } from "./web/robots.ts";

/**
 * A route answers a request or returns `undefined` to pass it on. It gets the
 * web itself so it can build absolute links to other routes.
 */
export type Route = (
  req: Request,
  url: URL,
  web: FixtureWebInfo,
) => Response | Promise<Response> | undefined | Promise<Response | undefined>;

/** What routes may know about the running web. */
export interface FixtureWebInfo {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** Aborts when the web closes, so hanging and trickling responses can end. */
  closing: AbortSignal;
}

/** A running fixture web. */
export interface FixtureWeb extends FixtureWebInfo {
  /** Every request path (with query) in arrival order, for "was it requested?" checks. */
  requests: string[];
  /** Closes the server and any hanging responses. */
  close(): Promise<void>;
}

/** Routes every test web serves unless told otherwise. */
export const DEFAULT_ROUTES: Route[] = [
  ...pageRoutes,
  ...apiRoutes,
  ...engineRoutes,
  ...researchRoutes,
  ...hostileRoutes,
  ...renderRoutes,
  ...pdfRoutes,
  ...robotsRoutes,
];

/**
 * Starts a fixture web on 127.0.0.1 with an ephemeral port. `Deno.serve`
 * listens synchronously; the promise keeps callers free to change that.
 */
export function startFixtureWeb(routes: Route[] = DEFAULT_ROUTES): Promise<FixtureWeb> {
  const requests: string[] = [];
  const hangs = new AbortController();
  const info: FixtureWebInfo = { origin: "", closing: hangs.signal };
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
    onError: () => new Response("fixture error", { status: 500 }),
  }, async (req) => {
    const url = new URL(req.url);
    requests.push(url.pathname + url.search);
    for (const route of routes) {
      const res = await route(req, url, info);
      if (res) return res;
    }
    return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
  });
  info.origin = `http://127.0.0.1:${server.addr.port}`;
  return Promise.resolve({
    get origin() {
      return info.origin;
    },
    closing: hangs.signal,
    requests,
    async close() {
      hangs.abort();
      await server.shutdown();
    },
  });
}
