/**
 * Start-up stays light: what every call of the CLI imports must not reach
 * the heavy modules (DOM, tokenizer, Readability, Turndown, MCP SDK, Hono,
 * SQLite…), which load only behind the op, the face or the worker that uses
 * them. Read from Deno's module graph (`deno info --json`), following static
 * imports only: an eager import added anywhere on the start-up path fails here.
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Modules no command may pay for before it runs. */
const HEAVY = [
  "npm:/linkedom",
  "npm:/gpt-tokenizer",
  "npm:/@mozilla/readability",
  "npm:/turndown",
  "npm:/@modelcontextprotocol/sdk",
  "npm:/hono",
  "npm:/jsdom",
  "npm:/unpdf",
  "npm:/puppeteer",
  "npm:/stopword",
  "npm:/robots-parser",
  "node:sqlite",
];
/** Also kept out of the entry module itself, so `--version` loads neither. */
const ENTRY_ONLY = ["npm:/commander", "npm:/zod"];

interface GraphModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

async function graph(entry: string): Promise<Map<string, GraphModule>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, ROOT).pathname],
    cwd: ROOT.pathname,
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: GraphModule[];
    redirects: Record<string, string>;
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  for (const [from, to] of Object.entries(info.redirects)) {
    const target = modules.get(to);
    if (target) modules.set(from, target);
  }
  return modules;
}

/**
 * Every module reached from `roots` through static imports (dynamic ones too
 * with `dynamic`; type-only imports never), with the path that reached it.
 */
function staticClosure(
  modules: Map<string, GraphModule>,
  roots: string[],
  dynamic = false,
): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue: [string, string[]][] = roots.map((r) => [new URL(r, ROOT).href, [r]]);
  for (let item = queue.shift(); item; item = queue.shift()) {
    const [specifier, path] = item;
    if (seen.has(specifier)) continue;
    seen.set(specifier, path);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      const next = dep.code?.specifier;
      if (next && (dynamic || !dep.isDynamic)) {
        queue.push([next, [...path, next.replace(ROOT.href, "")]]);
      }
    }
  }
  return seen;
}

function offenders(reached: Map<string, string[]>, banned: string[]): string[] {
  return [...reached].filter(([s]) => banned.some((b) => s.startsWith(b)))
    .map(([, path]) => path.join(" → "));
}

Deno.test("main.ts's module graph, dynamic imports included, holds no npm package", async () => {
  // Deno reads every analyzable import ahead, dynamic ones too; `quarry --version` must
  // not pay for that, so the rest of the program is imported by a computed specifier.
  const modules = await graph("src/main.ts");
  const loaded = staticClosure(modules, ["src/main.ts"], true);
  assert.deepEqual([...loaded.keys()].filter((s) => !s.startsWith(ROOT.href)), []);
  assert.deepEqual(
    offenders(staticClosure(modules, ["src/main.ts"]), [...HEAVY, ...ENTRY_ONLY]),
    [],
  );
});

Deno.test("what every command loads (CLI, catalog, context, stores) reaches no heavy module", async () => {
  const modules = await graph("src/front/run.ts");
  const reached = staticClosure(modules, ["src/front/run.ts"]);
  assert.deepEqual(offenders(reached, HEAVY), []);
});

Deno.test("loading every op (serve, mcp) does not load the tokenizer's tables", async () => {
  // 2.4 MB of tables, ~0.3 s: they load when an op that counts awaits loadTokenizer().
  const modules = await graph("src/ops/registry.ts");
  const reached = staticClosure(modules, ["src/ops/registry.ts"]);
  assert.deepEqual(offenders(reached, ["npm:/gpt-tokenizer"]), []);
});

/** Libraries the pipeline needs only once a page is parsed. */
const DEFERRED = ["linkedom", "@mozilla/readability", "turndown"];
const IMPORT_FROM = /^import\s+(.*?)\s+from\s+"([^"]+)";?$/gms;

async function* sourceFiles(dir: URL): AsyncGenerator<[string, string]> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (entry.name.endsWith(".ts")) yield [url.pathname, await Deno.readTextFile(url)];
  }
}

Deno.test("the DOM, Readability and Turndown are imported with `import defer`", async () => {
  // A deferred module is evaluated on first use: `quarry mcp` lists its tools without
  // building the DOM; `quarry archive search` never does.
  const eager: string[] = [];
  for await (const [path, text] of sourceFiles(new URL("src/", ROOT))) {
    for (const [, clause, from] of text.matchAll(IMPORT_FROM)) {
      if (!DEFERRED.includes(from!)) continue;
      if (!/^(defer \* as \w+|type\b)/.test(clause!)) {
        eager.push(`${path}: import ${clause} from "${from}"`);
      }
    }
  }
  assert.deepEqual(eager, []);
});
