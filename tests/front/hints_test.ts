/**
 * Every option the program's text names exists: hints, error messages and
 * descriptions in `src/` mention `--flags`, and a flag that was renamed or
 * never existed sends a new user nowhere. The options are read from the
 * real commander program (every op, `serve` with its extensions, `mcp`).
 * @module
 */
import assert from "node:assert/strict";
import type { Command } from "commander";
import { configFromEnv } from "../../src/config.ts";
import { archiveIndexExtension } from "../../src/front/archive_schedule.ts";
import { buildProgram } from "../../src/front/cli.ts";
import { mcpCommand } from "../../src/front/mcp_command.ts";
import { serveCommand } from "../../src/front/serve_command.ts";
import { OPERATIONS } from "../../src/ops/registry.ts";

const SRC = new URL("../../src/", import.meta.url);

/** Deno's own flags, which hints about permissions may name. */
const DENO_FLAGS = /^--(allow-[a-z]+|deny-[a-z]+|unstable-kv|quiet)$/;
/** Flags of Chromium, named where Quarry says how to start a browser for rendering. */
const CHROMIUM_FLAGS = /^--(headless|remote-debugging-port)$/;

const FLAG = /(?:^|[^a-zA-Z0-9-])(--[a-z][a-z0-9-]*)/g;
const COMMENT_LINE = /^\s*(\/\/|\*|\/\*)/;

function options(cmd: Command, out = new Set<string>()): Set<string> {
  for (const o of cmd.options) if (o.long) out.add(o.long);
  for (const c of cmd.commands) options(c, out);
  return out;
}

async function* sources(dir: URL): AsyncGenerator<[string, string]> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* sources(url);
    else if (entry.name.endsWith(".ts")) yield [url.pathname, await Deno.readTextFile(url)];
  }
}

Deno.test("every --flag named in src/ (hints, messages, help) is an option of some command", async () => {
  const never = () => {
    throw new Error("not called");
  };
  const program = buildProgram(
    OPERATIONS,
    { stdout: never, stderr: never, context: never },
    never,
    [
      serveCommand({
        ops: OPERATIONS,
        config: configFromEnv({}),
        context: never,
        stderr: never,
        extensions: [archiveIndexExtension(never)],
      }),
      mcpCommand({ ops: OPERATIONS, context: never }),
    ],
  );
  const known = options(program);
  known.add("--help");
  const unknown: string[] = [];
  for await (const [path, text] of sources(SRC)) {
    text.split("\n").forEach((line, i) => {
      if (COMMENT_LINE.test(line)) return;
      for (const [, flag] of line.matchAll(FLAG)) {
        if (!known.has(flag!) && !DENO_FLAGS.test(flag!) && !CHROMIUM_FLAGS.test(flag!)) {
          unknown.push(`${path.replace(SRC.pathname, "src/")}:${i + 1}: ${flag}`);
        }
      }
    });
  }
  assert.deepEqual(unknown, []);
});
