import assert from "node:assert/strict";
import { z } from "zod";
import { inputFromBody, inputFromQuery, paramTable } from "../../src/front/http_input.ts";
import { defineOp, type Operation } from "../../src/ops/types.ts";

const readOp = defineOp({
  name: "read",
  command: ["read"],
  summary: "Read",
  description: "For tests.",
  input: z.object({
    urls: z.array(z.string()).min(1),
    engines: z.array(z.string()).optional(),
    categories: z.array(z.string()).optional(),
    maxTokens: z.number().optional(),
    force: z.boolean().default(false),
  }),
  positionals: [{ field: "urls", variadic: true }],
  run: () => Promise.resolve({ success: true, command: "read", results: [], metadata: {} }),
}) as unknown as Operation;

const params = (text: string) => new URLSearchParams(text);

Deno.test("inputFromQuery() never splits positional lists on commas (URLs contain them)", () => {
  const input = inputFromQuery(readOp, params("url=https://a.example/x,y&url=https://b.example"));
  assert.deepEqual(input.urls, ["https://a.example/x,y", "https://b.example"]);
});

Deno.test("inputFromQuery() splits option lists on commas and merges repeats", () => {
  const input = inputFromQuery(readOp, params("urls=u&engine=a,b&engines=c&category=x"));
  assert.deepEqual(input.engines, ["a", "b", "c"]);
  assert.deepEqual(input.categories, ["x"]);
});

Deno.test("paramTable() accepts field names, kebab and snake case, singulars and q", () => {
  const table = paramTable(readOp);
  for (const name of ["maxTokens", "max-tokens", "max_tokens"]) {
    assert.equal(table.byName.get(name)?.name, "maxTokens", name);
  }
  assert.equal(table.byName.get("url")?.name, "urls");
  assert.equal(table.byName.get("category")?.name, "categories");
  assert.equal(table.byName.get("q")?.name, "urls", "q is the first positional without a query");
});

Deno.test("inputFromQuery() reads booleans from words and a bare flag", () => {
  assert.equal(inputFromQuery(readOp, params("force")).force, true);
  assert.equal(inputFromQuery(readOp, params("force=no")).force, false);
  assert.equal(inputFromQuery(readOp, params("force=maybe")).force, "maybe");
});

Deno.test("inputFromQuery() refuses unknown and repeated scalar parameters", () => {
  assert.throws(() => inputFromQuery(readOp, params("colour=red")), /Unknown parameter "colour"/);
  assert.throws(() => inputFromQuery(readOp, params("force=1&force=0")), /more than once/);
});

Deno.test("inputFromBody() maps names and wraps a lone value for a list field", () => {
  assert.deepEqual(inputFromBody(readOp, { url: "https://a.example", "max-tokens": 5 }), {
    urls: ["https://a.example"],
    maxTokens: 5,
  });
  assert.throws(() => inputFromBody(readOp, ["x"]), /JSON object/);
});
