/**
 * The README's command and environment tables, generated from the operation
 * registry and ENV_VARS so they cannot drift. `deno run -A
 * tests/support/readme_tables.ts --write` rewrites them in README.md;
 * tests/readme_test.ts fails when README.md differs.
 * @module
 */
import { ENV_VARS } from "../../src/config.ts";
import { kebab } from "../../src/front/cli.ts";
import { OPERATIONS } from "../../src/ops/registry.ts";
import { fieldsOf } from "../../src/ops/schema_info.ts";

const README = new URL("../../README.md", import.meta.url);

/** Non-operation commands, documented by hand here. */
const EXTRA_COMMANDS: [string, string][] = [
  [
    "quarry serve [--port 8080] [--host 127.0.0.1] [--token T] [--cors ORIGIN]",
    "HTTP API and MCP over Streamable HTTP at `/mcp`",
  ],
  ["quarry mcp", "MCP server on stdio, for agent hosts"],
];

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
  for (const [usage, what] of EXTRA_COMMANDS) {
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
  const expected = fill(fill(current, "commands", commandsTable()), "env", envTable());
  return { current, expected };
}

if (import.meta.main) {
  const { current, expected } = await expectedReadme();
  if (Deno.args.includes("--write")) {
    await Deno.writeTextFile(README, expected);
    console.log(current === expected ? "README.md is up to date" : "README.md updated");
  } else console.log(expected);
}
