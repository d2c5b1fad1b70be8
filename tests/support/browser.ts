/**
 * A real headless Chromium for the render tests: the one at
 * `QUARRY_TEST_BROWSER_URL` (CI starts it, see `.ci/run`), else one started
 * here from Debian's `chromium` (or `chromium-headless-shell`) and killed
 * when the test process ends. With `CI=true` a missing browser is an error:
 * render tests must run in CI, not skip.
 * @module
 */

/** A browser the tests may use. */
export interface TestBrowser {
  /** `http://127.0.0.1:PORT` */
  url: string;
}

const BINARIES = ["chromium", "chromium-headless-shell", "google-chrome", "chrome"];
const START_TIMEOUT_MS = 20_000;

async function findBinary(): Promise<string | undefined> {
  const dirs = (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":");
  for (const name of BINARIES) {
    for (const dir of dirs) {
      const path = `${dir}/${name}`;
      try {
        if ((await Deno.stat(path)).isFile) return path;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

async function launch(binary: string): Promise<TestBrowser> {
  const profile = await Deno.makeTempDir({ prefix: "quarry-chromium-" });
  const child = new Deno.Command(binary, {
    args: [
      "--headless",
      "--remote-debugging-port=0",
      "--remote-debugging-address=127.0.0.1",
      `--user-data-dir=${profile}`,
      "--no-sandbox",
      "--no-first-run",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "about:blank",
    ],
    stdout: "null",
    stderr: "null",
    stdin: "null",
  }).spawn();
  child.unref();
  globalThis.addEventListener("unload", () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    // The browser's helpers may still be writing for a moment after the kill.
    for (let tries = 0; tries < 20; tries++) {
      try {
        Deno.removeSync(profile, { recursive: true });
        return;
      } catch {
        const until = Date.now() + 50;
        while (Date.now() < until) { /* an unload handler cannot await */ }
      }
    }
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const [port] = (await Deno.readTextFile(`${profile}/DevToolsActivePort`)).split("\n");
      if (port) return { url: `http://127.0.0.1:${port.trim()}` };
    } catch {
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${binary} did not open its DevTools port within ${START_TIMEOUT_MS} ms`);
}

/**
 * The browser for this test process, or `undefined` (with a message) when
 * none can be had outside CI.
 */
export async function testBrowser(): Promise<TestBrowser | undefined> {
  const given = Deno.env.get("QUARRY_TEST_BROWSER_URL");
  if (given) return { url: given.replace(/\/+$/, "") };
  const binary = await findBinary();
  if (binary) return await launch(binary);
  const message = "no Chromium: install Debian's chromium or set QUARRY_TEST_BROWSER_URL";
  if (Deno.env.get("CI") === "true") throw new Error(`render tests must run in CI: ${message}`);
  console.warn(`render tests skipped: ${message}`);
  return undefined;
}

/** Pages (tabs) the browser has open, from `/json/list`. */
export async function openTabs(browser: TestBrowser): Promise<{ id: string; url: string }[]> {
  const list = await (await fetch(`${browser.url}/json/list`)).json() as {
    id: string;
    type: string;
    url: string;
  }[];
  return list.filter((t) => t.type === "page");
}

/** A server on another loopback address that counts every request it gets. */
export function startPrivateTarget(): { origin: string; hits: string[]; close(): Promise<void> } {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.2", port: 0, onListen: () => {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return new Response("secret", { headers: { "content-type": "text/plain" } });
  });
  return {
    origin: `http://127.0.0.2:${server.addr.port}`,
    hits,
    close: () => server.shutdown(),
  };
}
