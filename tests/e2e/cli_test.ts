import assert from "node:assert/strict";
import { VERSION } from "../../src/config.ts";
import { CATALOG } from "../../src/ops/catalog.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { quarryCommand, runQuarry, tempHome } from "../support/run_quarry.ts";

Deno.test("quarry with no arguments prints its help on stdout and exits 0", async () => {
  const run = await runQuarry([]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  assert.match(run.stdout, /^Usage: quarry/);
  for (const entry of CATALOG) {
    assert.ok(run.stdout.includes(`  ${entry.command[0]} `), entry.command[0]);
  }
  for (const extra of ["serve", "mcp"]) assert.match(run.stdout, new RegExp(`\\n  ${extra} +\\S`));
});

Deno.test("serve and mcp are listed with the summary their own --help gives", async () => {
  const top = await runQuarry(["--help"]);
  for (const extra of ["serve", "mcp"]) {
    const own = await runQuarry([extra, "--help"]);
    assert.equal(own.code, 0, own.stderr);
    const summary = own.stdout.split("\n")[2]!;
    assert.match(summary, /^Serve /);
    assert.ok(top.stdout.replace(/\s+/g, " ").includes(`${extra} ${summary}`), extra);
    if (extra === "serve") assert.match(own.stdout, /--index <dir>[\s\S]*--index-every <duration>/);
  }
});

Deno.test("quarry --version prints the version alone", async () => {
  const run = await runQuarry(["--version"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `${VERSION}\n`);
});

Deno.test("--progress prints a line per page on stderr when stderr is not a terminal", async () => {
  const web = await startFixtureWeb();
  try {
    const url = `${web.origin}/pages/articles/http3.html`;
    const quiet = await runQuarry(["fetch", url]);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr, "", "no progress under a pipe unless asked");
    const loud = await runQuarry(["fetch", url, "--progress"]);
    assert.equal(loud.code, 0, loud.stderr);
    assert.match(loud.stderr, new RegExp(`^ok +${url.replaceAll(".", "\\.")} \\(\\d+ ms\\)$`, "m"));
  } finally {
    await web.close();
  }
});

Deno.test("archive index --watch says what it indexes under a pipe", async () => {
  const home = await tempHome();
  const dir = await Deno.makeTempDir({ prefix: "quarry-watch-" });
  await Deno.writeTextFile(
    `${dir}/tides.md`,
    "# Tides\n\nThe Moon's pull raises two bulges of water.\n",
  );
  const spec = quarryCommand(["archive", "index", dir, "--watch"], home);
  const child = new Deno.Command(spec.command, {
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  try {
    for await (const chunk of child.stderr) {
      text += decoder.decode(chunk, { stream: true });
      if (/^indexed: 1 added/m.test(text)) break;
    }
    assert.match(text, new RegExp(`^watching ${dir}: indexing now and on every change`, "m"));
    assert.match(text, /^indexed: 1 added, 0 updated, 0 removed, 0 unchanged$/m);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
