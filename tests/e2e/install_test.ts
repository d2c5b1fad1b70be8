import assert from "node:assert/strict";
import { VERSION } from "../../src/config.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { quarryCommand, tempHome } from "../support/run_quarry.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("deno task install gives a working quarry command, offline, in the root it is given", async () => {
  const home = await tempHome();
  const root = await Deno.makeTempDir({ prefix: "quarry-root-" });
  const web = await startFixtureWeb();
  try {
    const base = quarryCommand([], home);
    // The shim runs `deno` from the PATH, as on a user's machine.
    const denoDir = Deno.execPath().replace(/\/[^/]*$/, "");
    // `deno install --global` asks the npm registry for package metadata the run cache may lack
    // (a cold DENO_DIR): let it trust the system's certificates, as the rest of the gate's Deno does.
    const env = {
      ...base.env,
      PATH: `${denoDir}:${base.env.PATH}`,
      DENO_TLS_CA_STORE: Deno.env.get("DENO_TLS_CA_STORE") ?? "mozilla,system",
    };
    const install = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "install"],
      cwd: base.cwd,
      env: { ...env, DENO_INSTALL_ROOT: root },
      clearEnv: true,
    }).output();
    assert.equal(install.code, 0, decode(install.stderr));
    const quarry = `${root}/bin/quarry`;
    const run = (args: string[]) =>
      new Deno.Command(quarry, { args, cwd: root, env, clearEnv: true }).output();

    const version = await run(["--version"]);
    assert.equal(version.code, 0, decode(version.stderr));
    assert.equal(decode(version.stdout).trim(), VERSION);

    const fetched = await run(["fetch", `${web.origin}/pages/articles/http3.html`, "--json"]);
    assert.equal(fetched.code, 0, decode(fetched.stderr));
    const envelope = JSON.parse(decode(fetched.stdout));
    assert.equal(envelope.success, true);
    assert.equal(envelope.results[0].status, "ok");
    assert.match(envelope.results[0].content, /head-of-line blocking/);
    // It wrote its stores where QUARRY_HOME pointed when it was installed.
    assert.ok((await Deno.stat(`${home}/archive.db`)).isFile);
  } finally {
    await web.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
