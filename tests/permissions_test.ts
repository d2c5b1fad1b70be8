import assert from "node:assert/strict";
import {
  narrowWrite,
  normalizePath,
  WRITE_FLAG,
  writeGrants,
  type WritePermissions,
} from "../src/permissions.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Fake grants with Deno's rule: revoking a path revokes its ancestors too. */
function fakePermissions(grants: string[], everywhere = false) {
  const held = new Set(grants);
  const revoked: string[] = [];
  const covers = (g: string, p: string) => p === g || p.startsWith(g === "/" ? "/" : `${g}/`);
  const permissions: WritePermissions = {
    granted: (path) => path === undefined ? everywhere : [...held].some((g) => covers(g, path)),
    revoke(path) {
      revoked.push(path);
      for (const g of held) if (covers(g, path)) held.delete(g);
    },
  };
  return { permissions, held, revoked };
}

Deno.test("normalizePath() resolves relative paths, dots and repeated slashes", () => {
  assert.equal(normalizePath("/.", "/w"), "/");
  assert.equal(normalizePath("data/.", "/w"), "/w/data");
  assert.equal(normalizePath("//tmp/a/../b/", "/w"), "/tmp/b");
});

Deno.test("narrowWrite() keeps only the data directory of the task's three grants", () => {
  const env = { HOME: "/home/u" };
  const grants = writeGrants(env).map((g) => normalizePath(g, "/w"));
  assert.deepEqual(grants, ["/", "/quarry", "/home/u/.quarry"]);
  const fake = fakePermissions(grants);
  narrowWrite("/home/u/.quarry", env, fake.permissions, () => "/w");
  assert.deepEqual([...fake.held], ["/home/u/.quarry"]);
});

Deno.test("narrowWrite() keeps QUARRY_HOME and never revokes a grant inside it", () => {
  const env = { HOME: "/q", QUARRY_HOME: "/q" };
  const fake = fakePermissions(writeGrants(env).map((g) => normalizePath(g, "/w")));
  narrowWrite("/q", env, fake.permissions, () => "/w");
  assert.ok(fake.permissions.granted("/q/kv.sqlite3"));
  assert.ok(!fake.permissions.granted("/quarry/x"));
  assert.deepEqual(fake.revoked, ["/quarry"]);
});

Deno.test("narrowWrite() leaves other flags alone: write everywhere, or grants of its own", () => {
  const everywhere = fakePermissions([], true);
  assert.deepEqual(narrowWrite("/d", { HOME: "/h" }, everywhere.permissions, () => "/w"), []);
  const own = fakePermissions(["/h"]);
  assert.deepEqual(narrowWrite("/h/.quarry", { HOME: "/h" }, own.permissions, () => "/w"), []);
  assert.deepEqual([...own.held], ["/h"]);
});

/** The quarry task's permission flags, expanded the way the task shell does. */
async function taskFlags(env: Record<string, string>): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const task: string = config.tasks.quarry;
  const flags = task.split(" ").filter((a) => a.startsWith("--allow") || a === "--unstable-kv");
  return flags.map((f) => f.replace(/\$([A-Z_]+)/g, (_, name: string) => env[name] ?? ""));
}

Deno.test("under the quarry task's real flags only the data directory stays writable", async () => {
  const home = await Deno.makeTempDir({ prefix: "quarry-perm-" });
  try {
    const env = { HOME: home, PATH: Deno.env.get("PATH") ?? "" };
    const probe = `
      import { readEnv, resolveDataDir } from "${ROOT}src/config.ts";
      import { narrowWrite } from "${ROOT}src/permissions.ts";
      const env = readEnv();
      narrowWrite(resolveDataDir(env), env);
      const state = (path) => Deno.permissions.querySync({ name: "write", path }).state;
      console.log(JSON.stringify([state(resolveDataDir(env)), state("/"), state("/quarry"), state(Deno.cwd())]));`;
    const flags = await taskFlags(env);
    assert.ok(
      flags.includes(WRITE_FLAG.replace(/\$([A-Z_]+)/g, (_, n) => (env as never)[n] ?? "")),
    );
    await Deno.writeTextFile(`${home}/probe.ts`, probe);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...flags, `${home}/probe.ts`],
      env,
      clearEnv: true,
      cwd: home,
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const states = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.deepEqual(states, ["granted", "prompt", "prompt", "prompt"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("install and compile share the quarry task's flags but fix the write path", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const permissionFlags = (task: string) =>
    task.replace(/\$\([^)]*\)/g, "").split(" ").filter((a) =>
      (a.startsWith("--allow") && !a.startsWith("--allow-write")) || a === "--unstable-kv"
    );
  const quarry = permissionFlags(config.tasks.quarry);
  assert.ok(config.tasks.quarry.includes(WRITE_FLAG));
  for (const name of ["install", "compile"]) {
    assert.deepEqual(permissionFlags(config.tasks[name]), quarry, name);
    assert.match(
      config.tasks[name],
      /--allow-write=\$\(deno run --quiet --allow-env src\/datadir\.ts\)/,
    );
  }
});
