/**
 * Cache keys: an operation's input, normalized so that inputs which must give
 * the same answer hash the same (case, surrounding spaces and key order do
 * not matter; flags that only change presentation are left out).
 * @module
 */

/**
 * Input fields that never change the answer, only how it is shown or
 * whether the cache is used.
 */
export const DEFAULT_IGNORED_FIELDS: readonly string[] = [
  "force",
  "noCache",
  "json",
  "pretty",
  "ttl",
];

const SPACES = /\s+/g;
/** Index keys must stay well under Deno KV's 2 KiB key limit. */
const MAX_QUERY_KEY_CHARS = 512;

/** Lowercases, trims and collapses inner whitespace. */
export function normalizeText(text: string): string {
  return text.trim().replace(SPACES, " ").toLowerCase();
}

/**
 * A canonical copy of a JSON-like input: strings normalized, object keys
 * sorted, `undefined` and ignored fields dropped, array order kept (it can
 * matter, e.g. an engine chain).
 *
 * @example
 * ```ts
 * normalizeInput({ b: " React ", a: 1, force: true }); // { a: 1, b: "react" }
 * ```
 */
export function normalizeInput(
  value: unknown,
  ignored: readonly string[] = DEFAULT_IGNORED_FIELDS,
): unknown {
  if (typeof value === "string") return normalizeText(value);
  if (Array.isArray(value)) return value.map((v) => normalizeInput(v, ignored));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const field = (value as Record<string, unknown>)[key];
      if (field === undefined || ignored.includes(key)) continue;
      out[key] = normalizeInput(field, ignored);
    }
    return out;
  }
  return value;
}

/** Hex SHA-256 of a text. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the normalized input: the last part of `["cache", op, hash]`. */
export function inputHash(
  input: unknown,
  ignored: readonly string[] = DEFAULT_IGNORED_FIELDS,
): Promise<string> {
  return sha256Hex(JSON.stringify(normalizeInput(input, ignored)));
}

/**
 * The key part under which an entry is indexed for `cache clear <query>`:
 * the normalized text, or its hash when it is too long for a KV key.
 */
export async function queryIndexKey(text: string): Promise<string> {
  const normal = normalizeText(text);
  return normal.length <= MAX_QUERY_KEY_CHARS ? normal : `sha256:${await sha256Hex(normal)}`;
}
