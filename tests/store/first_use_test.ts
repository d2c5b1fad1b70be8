import assert from "node:assert/strict";

const ARCHIVE = new URL("../../src/store/archive/archive.ts", import.meta.url).href;
const KV = new URL("../../src/store/kv/kv.ts", import.meta.url).href;
const CONFIG = new URL("../../src/config.ts", import.meta.url).href;

/** What each process does: open both stores of a fresh home, write, read back. */
function script(home: string): string {
  return `
    import { Archive } from "${ARCHIVE}";
    import { openKv } from "${KV}";
    import { configFromEnv } from "${CONFIG}";
    const config = configFromEnv({ QUARRY_HOME: ${JSON.stringify(home)} });
    const [archive, kv] = await Promise.all([
      Promise.resolve().then(() => Archive.open(config.home + "/archive.db")),
      openKv(config),
    ]);
    await kv.set(["first-use", Deno.pid], 1);
    archive.close();
    kv.close();
  `;
}

Deno.test("eight processes opening a fresh data directory at once all succeed", async () => {
  const home = await Deno.makeTempDir({ prefix: "quarry-first-use-" });
  try {
    const runs = await Promise.all(
      Array.from({ length: 8 }, () =>
        new Deno.Command(Deno.execPath(), {
          args: ["eval", "--unstable-kv", "--quiet", script(home)],
          cwd: new URL("../../", import.meta.url).pathname,
          stdout: "piped",
          stderr: "piped",
        }).output()),
    );
    for (const run of runs) {
      assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
