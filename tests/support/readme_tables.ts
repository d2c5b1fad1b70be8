/**
 * The README's generated parts, so they cannot drift: the command, route
 * and environment tables (from the operation registry, the `serve` command
 * and ENV_VARS) and the sample answer on its first screen (what `quarry
 * search` prints on the fixture web). `deno run -A
 * tests/support/readme_tables.ts --write` rewrites them in README.md;
 * tests/readme_test.ts fails when README.md differs.
 * @module
 */
import { Command } from "commander";
import { configFromEnv, ENV_VARS } from "../../src/config.ts";
import { archiveIndexExtension } from "../../src/front/archive_schedule.ts";
import { kebab } from "../../src/front/cli.ts";
import { serveCommand } from "../../src/front/serve_command.ts";
import { OPERATIONS } from "../../src/ops/registry.ts";
import { fieldsOf } from "../../src/ops/schema_info.ts";
import { startFixtureWeb } from "./fixture_web.ts";
import { runQuarry } from "./run_quarry.ts";

const README = new URL("../../README.md", import.meta.url);

/** `quarry serve` with every option it takes, read from the real command. */
function serveUsage(): string {
  const never = () => {
    throw new Error("not called");
  };
  const program = new Command();
  serveCommand({
    ops: OPERATIONS,
    config: configFromEnv({}),
    context: never,
    stderr: never,
    extensions: [archiveIndexExtension(never)],
  }).register(program, never);
  const serve = program.commands.find((c) => c.name() === "serve")!;
  return ["quarry serve", ...serve.options.map((o) => `[${o.flags}]`)].join(" ");
}

/** Non-operation commands. */
function extraCommands(): [string, string][] {
  return [
    [serveUsage(), "HTTP API and MCP over Streamable HTTP at `/mcp`"],
    ["quarry mcp", "MCP server on stdio, for agent hosts"],
  ];
}

/** Routes the HTTP face adds to the operations' (src/front/http_app.ts). */
const FIXED_ROUTES: [string, string][] = [
  [
    "GET /health",
    '`{"status":"ok","version":…,"stores":{"kv":"ok","archive":"ok"}}`; 503 when a store fails; no token needed',
  ],
  ["GET /openapi.json", "OpenAPI 3.1, generated from the same zod schemas"],
  ["POST /mcp", "MCP over Streamable HTTP"],
];

/** One row per route: every operation with an `http` entry, then the fixed routes. */
export function routesTable(): string {
  const lines = ["| route | operation | what it does |", "|---|---|---|"];
  for (const op of OPERATIONS) {
    if (!op.http) continue;
    const route = `${op.http.method} ${op.http.path}`;
    lines.push(`| \`${route}\` | \`quarry ${op.command.join(" ")}\` | ${cell(op.summary)} |`);
  }
  for (const [route, what] of FIXED_ROUTES) lines.push(`| \`${route}\` | — | ${cell(what)} |`);
  return lines.join("\n");
}

/** The question of the README's sample answer, and the options that keep it short. */
export const SAMPLE_ARGS = [
  "search",
  "why does HTTP/3 avoid head-of-line blocking",
  "-n",
  "2",
  "--budget",
  "600",
  "--timeout",
  "2s",
];

/** What `quarry search` prints on the fixture web, with the fixture's port (only) written as PORT. */
export async function sampleAnswer(): Promise<string> {
  const web = await startFixtureWeb();
  try {
    const run = await runQuarry(SAMPLE_ARGS, {
      env: { QUARRY_DDG_URL: `${web.origin}/research`, QUARRY_ENGINES: "duckduckgo" },
    });
    if (run.code !== 0) throw new Error(`the sample search failed: ${run.stderr}`);
    const shown = SAMPLE_ARGS.map((a) => (a.includes(" ") ? `"${a}"` : a)).join(" ");
    return [
      "```text",
      `$ quarry ${shown}`,
      run.stdout.replaceAll(web.origin, "http://127.0.0.1:PORT").trimEnd(),
      "```",
    ].join("\n");
  } finally {
    await web.close();
  }
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** One row per operation: usage, what it does, HTTP route, MCP tool; then its options. */
export function commandsTable(): string {
  const lines = ["| command | what it does | HTTP | MCP tool |", "|---|---|---|---|"];
  const options: string[] = [];
  for (const op of OPERATIONS) {
    const positional = new Set((op.positionals ?? []).map((p) => p.field));
    const optional = new Set(fieldsOf(op.input).filter((f) => f.optional).map((f) => f.name));
    const args = (op.positionals ?? []).map((p) => {
      const name = `${p.field}${p.variadic ? "…" : ""}`;
      return optional.has(p.field) ? `[${name}]` : `<${name}>`;
    });
    const usage = `quarry ${[...op.command, ...args].join(" ")}`;
    const http = op.http ? `\`${op.http.method} ${op.http.path}\`` : "—";
    const mcp = op.mcp ? `\`${op.mcp.tool}\`` : "—";
    lines.push(`| \`${cell(usage)}\` | ${cell(op.summary)} | ${http} | ${mcp} |`);
    const flags = fieldsOf(op.input).filter((f) => !positional.has(f.name) && !f.aliasOf).map(
      (f) => {
        const short = op.short?.[f.name] ? `-${op.short[f.name]}, ` : "";
        const value = f.kind === "boolean" ? "" : f.values ? ` ${f.values.join("|")}` : " …";
        const def = f.defaultValue === undefined || f.defaultValue === false
          ? ""
          : ` (default ${JSON.stringify(f.defaultValue)})`;
        return `  - \`${short}--${kebab(f.name)}${value}\`: ${f.description}${def}`;
      },
    );
    if (flags.length > 0) options.push(`- \`quarry ${op.command.join(" ")}\`:`, ...flags);
  }
  for (const [usage, what] of extraCommands()) {
    lines.push(`| \`${cell(usage)}\` | ${what} | — | — |`);
  }
  return [
    ...lines,
    "",
    "Options of each command (every command also takes `--json`, `--pretty` and `--help`):",
    "",
    ...options,
  ].join("\n");
}

/** Every environment variable Quarry reads. */
export function envTable(): string {
  const rows = Object.entries(ENV_VARS).map(([name, what]) => `| \`${name}\` | ${cell(what)} |`);
  return ["| variable | meaning |", "|---|---|", ...rows].join("\n");
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function fill(readme: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) throw new Error(`README.md has no ${start} … ${end} section`);
  return `${readme.slice(0, a + start.length)}\n${body}\n${readme.slice(b)}`;
}

/** README.md as it should be. */
export async function expectedReadme(): Promise<{ current: string; expected: string }> {
  const current = await Deno.readTextFile(README);
  let expected = fill(current, "commands", commandsTable());
  expected = fill(expected, "routes", routesTable());
  expected = fill(expected, "env", envTable());
  expected = fill(expected, "sample", await sampleAnswer());
  return { current, expected };
}

if (import.meta.main) {
  const { current, expected } = await expectedReadme();
  if (Deno.args.includes("--write")) {
    await Deno.writeTextFile(README, expected);
    console.log(current === expected ? "README.md is up to date" : "README.md updated");
  } else console.log(expected);
}
