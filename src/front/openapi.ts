/**
 * `GET /openapi.json`: an OpenAPI 3.1 document generated from the operation
 * registry, so the described API is the served API.
 * @module
 */
import { z } from "zod";
import { HTTP_STATUS } from "../errors.ts";
import type { Operation } from "../ops/types.ts";
import { envelopeSchema, pageStatusSchema, searchResultSchema } from "./envelope_schema.ts";

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** Options of {@linkcode openApiDocument}. */
export interface OpenApiOptions {
  version: string;
  /** Declare bearer auth on every route but `/health`. @default {false} */
  bearer?: boolean;
}

/** Path of the MCP endpoint, described but not an operation. */
export const MCP_PATH = "/mcp";

/** The JSON Schema (2020-12, as OpenAPI 3.1 uses) of a zod schema as a client sends it. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/** `archive_search` → `ArchiveSearch`. */
function pascal(name: string): string {
  return name.split(/[^a-zA-Z0-9]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function errorResponses(bearer: boolean): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(HTTP_STATUS)) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  if (bearer) byStatus.set(401, ["missing or wrong bearer token"]);
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: codes.join(", "),
      content: { "application/json": { schema: ref("Envelope") } },
    };
  }
  return out;
}

function queryParameters(input: JsonSchema): unknown[] {
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    schema,
    ...(schema.type === "array" ? { style: "form", explode: true } : {}),
  }));
}

function operationObject(op: Operation, inputName: string, bearer: boolean, viaBody: boolean) {
  const input = jsonSchemaOf(op.input);
  return {
    operationId: viaBody && op.http?.method === "GET" ? `${op.name}_post` : op.name,
    summary: op.summary,
    description: op.description,
    "x-quarry-operation": op.name,
    ...(viaBody
      ? {
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref(inputName) } },
        },
      }
      : { parameters: queryParameters(input) }),
    responses: {
      "200": {
        description: "The envelope with success: true",
        content: { "application/json": { schema: ref("Envelope") } },
      },
      ...errorResponses(bearer),
    },
  };
}

/** Builds the OpenAPI 3.1 document of every operation that has an HTTP route. */
export function openApiDocument(ops: readonly Operation[], options: OpenApiOptions): JsonSchema {
  const bearer = options.bearer ?? false;
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = {
    Envelope: jsonSchemaOf(envelopeSchema),
    PageStatus: jsonSchemaOf(pageStatusSchema),
    SearchResult: jsonSchemaOf(searchResultSchema),
  };
  for (const op of ops) {
    if (!op.http) continue;
    const inputName = `${pascal(op.name)}Input`;
    schemas[inputName] = jsonSchemaOf(op.input);
    const item = paths[op.http.path] ??= {};
    const method = op.http.method.toLowerCase();
    item[method] = operationObject(op, inputName, bearer, method === "post");
    // GET routes also take their input as a JSON body.
    if (method === "get" && !item.post) item.post = operationObject(op, inputName, bearer, true);
  }
  paths["/health"] = {
    get: {
      operationId: "health",
      summary: "Liveness, version and store status",
      security: [],
      responses: {
        "200": {
          description: "Every store answers",
          content: { "application/json": { schema: ref("Health") } },
        },
        "503": {
          description: "A store does not answer",
          content: { "application/json": { schema: ref("Health") } },
        },
      },
    },
  };
  schemas.Health = {
    type: "object",
    required: ["status", "version", "stores"],
    properties: {
      status: { type: "string", enum: ["ok", "degraded"] },
      version: { type: "string" },
      stores: { type: "object", additionalProperties: { type: "string" } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Quarry",
      version: options.version,
      description: "Search, read and remember the web. Every answer is a JSON envelope; " +
        `the same operations are MCP tools at ${MCP_PATH} (Streamable HTTP).`,
    },
    paths,
    components: {
      schemas,
      ...(bearer ? { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } } : {}),
    },
    ...(bearer ? { security: [{ bearer: [] }] } : {}),
  };
}
