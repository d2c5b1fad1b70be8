/**
 * Turns an HTTP request's query string or JSON body into an operation's
 * input, using the zod schema's field kinds so text becomes numbers,
 * booleans and lists the way the CLI reads its flags.
 *
 * Naming rule: a field is accepted by its name (`maxTokens`), in kebab or
 * snake case (`max-tokens`, `max_tokens`), an array field also by its
 * singular (`url` for `urls`), and `q` stands for the `query` field, or the
 * first positional field when there is none (`/fetch?url=…`, `/search?q=…`).
 * @module
 */
import type { z } from "zod";
import { QuarryError } from "../errors.ts";
import { type FieldInfo, type FieldKind, fieldsOf } from "../ops/schema_info.ts";
import type { Operation } from "../ops/types.ts";

const TRUE_WORDS = new Set(["", "1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);
const CAPITAL = /[A-Z]/g;
const LIST_SEPARATOR = ",";

/** How the HTTP face names an operation's fields. */
export interface ParamTable {
  /** Accepted name → field. */
  byName: Map<string, FieldInfo>;
  /** Fields that are CLI positionals: free text, so never split on commas. */
  positional: Set<string>;
}

function singular(name: string): string | undefined {
  if (name.endsWith("ies")) return `${name.slice(0, -3)}y`;
  if (name.endsWith("s") && !name.endsWith("ss")) return name.slice(0, -1);
  return undefined;
}

/** Builds the accepted names of every field of an operation. */
export function paramTable(op: Operation): ParamTable {
  const fields = fieldsOf(op.input);
  const byName = new Map<string, FieldInfo>();
  const add = (name: string | undefined, info: FieldInfo) => {
    if (name && !byName.has(name)) byName.set(name, info);
  };
  // Exact names first, so an alias never hides another field; a field that is
  // itself another tool's name (`url`) comes last, so `url=` keeps repeating into `urls`.
  const own = fields.filter((f) => !f.aliasOf);
  for (const f of own) byName.set(f.name, f);
  for (const f of own) {
    add(f.name.replace(CAPITAL, (c) => `-${c.toLowerCase()}`), f);
    add(f.name.replace(CAPITAL, (c) => `_${c.toLowerCase()}`), f);
    if (f.kind === "array") add(singular(f.name), f);
  }
  for (const f of fields.filter((f) => f.aliasOf)) add(f.name, f);
  const first = op.positionals?.[0]?.field;
  const q = fields.find((f) => f.name === "query") ??
    fields.find((f) => f.name === first);
  if (q) add("q", q);
  return { byName, positional: new Set((op.positionals ?? []).map((p) => p.field)) };
}

function scalar(kind: FieldKind | undefined, text: string): unknown {
  if (kind === "number") {
    const n = Number(text);
    // Left as text when it is not a number, so the schema reports the field.
    return text.trim() === "" || Number.isNaN(n) ? text : n;
  }
  if (kind === "boolean") {
    const word = text.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return text;
}

function unknownParam(op: Operation, name: string, table: ParamTable): QuarryError {
  const known = [...new Set([...table.byName.values()].map((f) => f.name))];
  return new QuarryError("BAD_INPUT", `Unknown parameter "${name}" for ${op.name}`, {
    suggestions: [`Parameters: ${known.join(", ")}`, "See GET /openapi.json"],
  });
}

/** Reads an operation's input from query parameters. */
export function inputFromQuery(
  op: Operation,
  params: URLSearchParams,
  table: ParamTable = paramTable(op),
): Record<string, unknown> {
  const texts = new Map<FieldInfo, string[]>();
  for (const [name, value] of params) {
    const info = table.byName.get(name);
    if (!info) throw unknownParam(op, name, table);
    texts.set(info, [...(texts.get(info) ?? []), value]);
  }
  const out: Record<string, unknown> = {};
  for (const [info, values] of texts) {
    if (info.kind === "array") {
      const items = table.positional.has(info.name)
        ? values
        : values.flatMap((v) => v.split(LIST_SEPARATOR)).map((v) => v.trim()).filter(Boolean);
      out[info.name] = items.map((v) => scalar(info.itemKind, v));
    } else if (values.length > 1) {
      throw new QuarryError("BAD_INPUT", `Parameter "${info.name}" was given more than once`, {
        suggestions: [`Give ${info.name} once`],
      });
    } else {
      out[info.name] = scalar(info.kind, values[0]!);
    }
  }
  return out;
}

/** Reads an operation's input from a parsed JSON body (typed already; names mapped). */
export function inputFromBody(
  op: Operation,
  body: unknown,
  table: ParamTable = paramTable(op),
): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new QuarryError("BAD_INPUT", "The request body must be a JSON object", {
      suggestions: ['Send e.g. {"urls": ["https://example.com"]}', "See GET /openapi.json"],
    });
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const info = table.byName.get(name);
    if (!info) throw unknownParam(op, name, table);
    // One value where a list is expected is a list of one, as in the query string.
    out[info.name] = info.kind === "array" && !Array.isArray(value) ? [value] : value;
  }
  return out;
}

/** Turns zod issues into one BAD_INPUT error naming the parameters. */
export function httpInputError(error: z.ZodError, op: Operation): QuarryError {
  const parts = error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const route = op.http ? `${op.http.method} ${op.http.path}` : op.name;
  return new QuarryError("BAD_INPUT", `Invalid input: ${parts.join("; ")}`, {
    suggestions: [`See GET /openapi.json for the parameters of ${route}`],
  });
}
