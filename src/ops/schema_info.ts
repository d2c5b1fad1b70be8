/**
 * Reads what a face needs to know about a zod field (kind, default,
 * description) so the CLI, HTTP and MCP faces are generated from one schema.
 * @module
 */
import type { z } from "zod";

/** The kinds of field a face can take from text. */
export type FieldKind = "string" | "number" | "boolean" | "array" | "enum";

/** What a face needs to know about one input field. */
export interface FieldInfo {
  name: string;
  kind: FieldKind;
  optional: boolean;
  defaultValue: unknown;
  description: string;
  /** Allowed values of an enum (or an array of enum). */
  values: string[] | undefined;
  /** Kind of the items of an array. */
  itemKind: FieldKind | undefined;
  /**
   * The field this one is another name for (`url` for `urls`), for callers
   * that use other tools' names; the CLI and the README leave it out.
   */
  aliasOf?: string;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  defaultValue?: unknown;
  options?: z.ZodType[];
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function baseKind(schema: z.ZodType): { kind: FieldKind; values?: string[] } {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return { kind: "string" };
    case "number":
    case "int":
      return { kind: "number" };
    case "boolean":
      return { kind: "boolean" };
    case "enum":
      return { kind: "enum", values: Object.values(def.entries ?? {}) };
    case "array":
      return { kind: "array" };
    case "pipe":
      return baseKind(def.in!);
    case "union":
      // A union such as string | number is read from text as a string.
      return baseKind(def.options![0]!);
    default:
      return { kind: "string" };
  }
}

/** Describes one field of an object schema. */
export function fieldInfo(name: string, schema: z.ZodType): FieldInfo {
  let current = schema;
  let optional = false;
  let defaultValue: unknown = undefined;
  const description = schema.description ?? "";
  const aliasOf = (schema.meta() as { aliasOf?: unknown } | undefined)?.aliasOf;
  for (;;) {
    const def = defOf(current);
    if (def.type === "optional") {
      optional = true;
      current = def.innerType!;
    } else if (def.type === "default" || def.type === "prefault") {
      optional = true;
      defaultValue = def.defaultValue;
      current = def.innerType!;
    } else if (def.type === "nullable") {
      current = def.innerType!;
    } else break;
  }
  const base = baseKind(current);
  let itemKind: FieldKind | undefined;
  let values = base.values;
  if (base.kind === "array") {
    const item = baseKind(defOf(current).element!);
    itemKind = item.kind;
    values = item.values;
  }
  return {
    name,
    kind: base.kind,
    optional,
    defaultValue,
    description: description || (current.description ?? ""),
    values,
    itemKind,
    ...(typeof aliasOf === "string" ? { aliasOf } : {}),
  };
}

/** Describes every field of an object schema, in declaration order. */
export function fieldsOf(schema: z.ZodObject): FieldInfo[] {
  return Object.entries(schema.shape).map(([name, field]) => fieldInfo(name, field as z.ZodType));
}
