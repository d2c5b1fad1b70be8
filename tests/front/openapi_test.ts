import assert from "node:assert/strict";
import { openApiDocument } from "../../src/front/openapi.ts";
import { FAKE_OPS } from "./fake_ops.ts";

type Doc = {
  openapi: string;
  security?: unknown[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes?: unknown };
};

Deno.test("openApiDocument() describes GET routes by query and also as POST with a JSON body", () => {
  const doc = openApiDocument(FAKE_OPS, { version: "1.2.3" }) as Doc;
  assert.equal(doc.openapi, "3.1.0");
  const get = doc.paths["/echo"]!.get!;
  assert.equal(get.operationId, "echo");
  const params = get.parameters as { name: string; in: string; required: boolean }[];
  assert.deepEqual(params.map((p) => [p.name, p.required]), [
    ["query", true],
    ["count", false],
    ["force", false],
    ["engines", false],
    ["urls", false],
    ["maxTokens", false],
  ]);
  assert.ok(params.every((p) => p.in === "query"));
  const post = doc.paths["/echo"]!.post!;
  assert.equal(post.operationId, "echo_post");
  assert.deepEqual(
    (post.requestBody as { content: Record<string, { schema: unknown }> }).content[
      "application/json"
    ]!.schema,
    { $ref: "#/components/schemas/EchoInput" },
  );
  assert.equal(doc.paths["/echo"]!.delete!.operationId, "wipe");
  assert.equal(doc.components.schemas.EchoInput!.type, "object");
  assert.equal(doc.components.schemas.EchoInput!.$schema, undefined);
  const responses = get.responses as Record<string, unknown>;
  for (const status of ["200", "400", "404", "424", "429", "500", "502", "503", "504"]) {
    assert.ok(responses[status], status);
  }
});

Deno.test("openApiDocument() declares bearer auth only with a token, never on /health", () => {
  const open = openApiDocument(FAKE_OPS, { version: "1" }) as Doc;
  assert.equal(open.security, undefined);
  assert.equal(open.components.securitySchemes, undefined);
  const guarded = openApiDocument(FAKE_OPS, { version: "1", bearer: true }) as Doc;
  assert.deepEqual(guarded.security, [{ bearer: [] }]);
  assert.deepEqual(guarded.paths["/health"]!.get!.security, []);
  assert.ok((guarded.paths["/echo"]!.get!.responses as Record<string, unknown>)["401"]);
});

Deno.test("openApiDocument() lists the page statuses, unreadable among them", () => {
  const doc = openApiDocument(FAKE_OPS, { version: "1.2.3" }) as Doc;
  const status = doc.components.schemas.PageStatus as { type: string; enum: string[] };
  assert.equal(status.type, "string");
  assert.ok(status.enum.includes("unreadable"));
  assert.ok(!status.enum.includes("not_modified"), "internal status left out");
});

Deno.test("the OpenAPI document describes a search result with every engine that returned it", () => {
  const doc = openApiDocument(FAKE_OPS, { version: "1.2.3" }) as Doc;
  const properties = doc.components.schemas.SearchResult!.properties as Record<string, unknown>;
  assert.ok(properties.engines, "engines");
  assert.ok(properties.rank, "rank");
});
