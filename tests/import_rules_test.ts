/**
 * The import rules of DESIGN §2, read from the source: imports go one way,
 * `front → ops → {pipeline, store} → text, config, errors, envelope`, and the
 * pipeline and the stores meet only through interfaces declared in the
 * pipeline. Each failure names the file and the import that breaks a rule.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** One import of one source file. */
export interface ImportEdge {
  /** File path under `src/`, with forward slashes. */
  file: string;
  specifier: string;
  /** Path under `src/` the specifier points at, or undefined for packages. */
  target?: string;
  /** Only types are imported: nothing of the target runs. */
  typeOnly: boolean;
}

const STATIC = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']/g;
const SIDE_EFFECT = /(?:^|[\n;])\s*import\s*["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
const COMMENT = /\/\*[\s\S]*?\*\/|(^|[^:"'`])\/\/[^\n]*/g;

function allTypes(clause: string): boolean {
  const inner = /^\{([\s\S]*)\}$/.exec(clause.trim())?.[1];
  if (inner === undefined) return false;
  const names = inner.split(",").map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith("type "));
}

/** The imports of one file's source text. */
export function importsOf(file: string, source: string): ImportEdge[] {
  const code = source.replace(COMMENT, "$1");
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const target = specifier.startsWith(".")
      ? relative(SRC, resolve(SRC, dirname(file), specifier)).replaceAll("\\", "/")
      : undefined;
    edges.push({ file, specifier, typeOnly, ...(target === undefined ? {} : { target }) });
  };
  for (const m of code.matchAll(STATIC)) add(m[4]!, m[2] !== undefined || allTypes(m[3]!));
  for (const m of code.matchAll(SIDE_EFFECT)) add(m[1]!, false);
  for (const m of code.matchAll(DYNAMIC)) add(m[1]!, false);
  return edges;
}

/** The folder (or root module) a path under `src/` belongs to. */
export function layerOf(path: string): string {
  const [first, ...rest] = path.split("/");
  return rest.length > 0 ? first! : first!.replace(/\.ts$/, "");
}

/** Folders each folder must not import from; `*` means anything but itself and the base. */
const FORBIDDEN: Record<string, string[]> = {
  pipeline: ["store", "ops", "front", "render", "main"],
  store: ["ops", "front", "render", "main"],
  ops: ["front", "main"],
  render: ["front", "ops", "store", "main"],
  text: ["*"],
};
/** What `text/` may import besides itself. */
const BASE = new Set(["text"]);

/** Why one edge breaks a rule, or undefined when it keeps them. */
export function violation(edge: ImportEdge): string | undefined {
  if (edge.target === undefined) return undefined;
  const from = layerOf(edge.file);
  const to = layerOf(edge.target);
  if (from === to) return undefined;
  const banned = FORBIDDEN[from] ?? [];
  if (banned.includes("*") && !BASE.has(to)) return `${from}/ imports only from itself`;
  if (banned.includes(to)) return `${from}/ must not import from ${to}/`;
  // The stores implement interfaces of the pipeline; they never run its code.
  if (from === "store" && to === "pipeline" && !edge.typeOnly) {
    return "store/ may import only types from pipeline/ (use `import type`)";
  }
  return undefined;
}

/** Cycles between folders, each as the path of folders that closes it. */
export function folderCycles(edges: ImportEdge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.target === undefined) continue;
    const [a, b] = [layerOf(e.file), layerOf(e.target)];
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (node: string, path: string[]) => {
    state.set(node, "open");
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node, [node]);
  return cycles;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await sourceFiles(path));
    else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

async function allEdges(): Promise<ImportEdge[]> {
  const edges: ImportEdge[] = [];
  for (const path of await sourceFiles(SRC)) {
    const file = relative(SRC, path).replaceAll("\\", "/");
    edges.push(...importsOf(file, await Deno.readTextFile(path)));
  }
  return edges;
}

Deno.test("src/ keeps the import rules of DESIGN §2", async () => {
  const edges = await allEdges();
  assert.ok(edges.length > 100, `only ${edges.length} imports were found: is the parser broken?`);
  const broken = edges.flatMap((e) => {
    const why = violation(e);
    return why === undefined ? [] : [`src/${e.file} imports "${e.specifier}": ${why}`];
  });
  assert.deepEqual(broken, [], `forbidden imports:\n${broken.join("\n")}`);
});

Deno.test("src/ has no cycle between folders", async () => {
  const cycles = folderCycles(await allEdges());
  const lines = cycles.map((c) => c.join(" → "));
  assert.deepEqual(lines, [], `cycles between folders:\n${lines.join("\n")}`);
});

Deno.test("importsOf() reads multi-line, type-only, re-exported and dynamic imports", () => {
  const edges = importsOf(
    "store/x.ts",
    [
      'import type { A } from "../pipeline/types.ts";',
      'import {\n  type B,\n  type C,\n} from "../pipeline/read.ts";',
      'import { type D, run } from "../pipeline/research.ts";',
      'export { E } from "./e.ts";',
      '// import { no } from "../front/cli.ts";',
      'const m = await import("../ops/search.ts");',
      'import "../text/url.ts";',
      'import { z } from "zod";',
    ].join("\n"),
  );
  const seen = edges.map((e) => [e.specifier, e.target ?? null, e.typeOnly]);
  assert.deepEqual(seen, [
    ["../pipeline/types.ts", "pipeline/types.ts", true],
    ["../pipeline/read.ts", "pipeline/read.ts", true],
    ["../pipeline/research.ts", "pipeline/research.ts", false],
    ["./e.ts", "store/e.ts", false],
    ["zod", null, false],
    ["../text/url.ts", "text/url.ts", false],
    ["../ops/search.ts", "ops/search.ts", false],
  ]);
});

Deno.test("violation() names each forbidden edge and lets allowed ones pass", () => {
  const edge = (file: string, target: string, typeOnly = false): ImportEdge => ({
    file,
    specifier: `../${target}`,
    target,
    typeOnly,
  });
  assert.match(violation(edge("pipeline/read.ts", "store/kv/pages.ts"))!, /pipeline.*store/);
  assert.match(violation(edge("store/memory.ts", "ops/types.ts", true))!, /store.*ops/);
  assert.match(violation(edge("store/memory.ts", "pipeline/read.ts"))!, /only types/);
  assert.match(violation(edge("ops/search.ts", "front/cli.ts"))!, /ops.*front/);
  assert.match(violation(edge("text/url.ts", "errors.ts"))!, /only from itself/);
  assert.equal(violation(edge("store/memory.ts", "pipeline/read.ts", true)), undefined);
  assert.equal(violation(edge("ops/search.ts", "store/stores.ts")), undefined);
  assert.equal(violation(edge("pipeline/read.ts", "text/url.ts")), undefined);
  assert.deepEqual(
    folderCycles([edge("ops/a.ts", "store/b.ts"), edge("store/b.ts", "ops/a.ts", true)]),
    [["ops", "store", "ops"]],
  );
});
