/**
 * The HTTP face as a module `deno serve` runs:
 *
 * ```sh
 * deno serve --host 127.0.0.1 --port 8080 --unstable-kv --allow-net --allow-read \
 *   --allow-write=$HOME/.quarry --allow-env src/front/http.ts
 * ```
 *
 * It reads the same environment as `quarry serve` (QUARRY_TOKEN, QUARRY_HOME,
 * …) and refuses to run on a non-loopback address without a token — note that
 * `deno serve` binds 0.0.0.0 unless given `--host`. `quarry serve` is the
 * usual way; this module exists for hosts that want `deno serve`.
 * @module
 */
import { configFromEnv, readEnv } from "../config.ts";
import { toQuarryError } from "../errors.ts";
import { OPERATIONS } from "../ops/registry.ts";
import { realContext, withWorkers } from "./context.ts";
import { createHttpApp, type HttpApp } from "./http_app.ts";
import { checkBind, httpSettings, listeningLine } from "./server.ts";

export { createHttpApp, DEFAULT_HTTP_CONFIG } from "./http_app.ts";
export type { HttpApp, HttpConfig, HttpDeps } from "./http_app.ts";

/** Exit code when the environment or the bind is refused (bad usage). */
const EXIT_USAGE = 2;

function fail(error: unknown): never {
  const qe = toQuarryError(error);
  console.error(`error [${qe.code}]: ${qe.message}`);
  for (const s of qe.suggestions) console.error(`  hint: ${s}`);
  Deno.exit(EXIT_USAGE);
}

/**
 * The `deno serve` export. The app is built when the server starts
 * listening (that is when the bound address is known), so importing this
 * module reads nothing.
 */
export function serveExport(): Deno.ServeDefaultExport {
  let app: HttpApp | undefined;
  return {
    onListen(addr) {
      const { hostname, port } = addr as Deno.NetAddr;
      try {
        const config = configFromEnv(readEnv());
        checkBind(hostname, config.token);
        app = createHttpApp({
          ops: OPERATIONS,
          // Lives as long as the process: `deno serve` has no shutdown hook to close it.
          context: withWorkers(realContext(config)).context,
          http: httpSettings(hostname, config.token),
          log: (line) => console.error(line),
        });
      } catch (error) {
        fail(error);
      }
      console.error(listeningLine({ hostname, port }));
    },
    fetch(req) {
      // onListen runs before the first request is accepted.
      return app ? app.fetch(req) : Promise.resolve(new Response(null, { status: 503 }));
    },
  };
}

export default serveExport();
