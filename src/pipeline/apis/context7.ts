/**
 * Context7 (library documentation): resolve a library name to a Context7 ID
 * with `GET /v2/libs/search`, then read ranked snippets with `GET
 * /v2/context?type=json`. Shapes follow Context7's OpenAPI description; the
 * token budget is applied by the caller.
 * @module
 */
import { QuarryError } from "../../errors.ts";
import { type ApiService, type HttpDeps, requestJson, type RetryConfig } from "./retry.ts";

/** Context7 as named in errors and hints. */
export const CONTEXT7: ApiService = {
  name: "Context7",
  keyEnv: "CONTEXT7_API_KEY",
  keyUrl: "https://context7.com/dashboard",
};

/** A library as `/v2/libs/search` describes it (the fields Quarry uses). */
export interface Library {
  id: string;
  title: string;
  description?: string;
  state?: string;
}

/** One documentation snippet, ready for the envelope. */
export interface DocSnippet {
  title: string;
  content: string;
  source_url: string | null;
}

/** A Context7 ID: `/owner/repo`, optionally with `/version` or `@version`. */
export const LIBRARY_ID = /^\/[^/\s]+\/[^/\s]+(?:[/@][^/\s]+)?$/;
const NOT_ALNUM = /[^a-z0-9]/g;
const COMBINING_MARKS = /\p{M}/gu;
/** Shortest squashed name that may match by containment ("vue" in "vuejs"). */
const MIN_CONTAINED = 3;
/** Longest extra tail of an asked name over a library's ("js" in "reactjs", "css"). */
const MAX_SUFFIX = 3;

function squash(text: string): string {
  return text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase().replace(NOT_ALNUM, "");
}

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal
 * string alignment), for names typed with a typo ("expresss", "raect").
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** Typos tolerated for a name of this length. */
function typoAllowance(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/**
 * How well a library answers to the name asked for: 3 same name, 2 one name
 * contains the other, 1 a small typo away, 0 not a match.
 */
export function nameMatch(wanted: string, library: Library): number {
  const w = squash(wanted);
  if (!w) return 0;
  const segments = library.id.split("/").filter(Boolean);
  const names = [library.title, segments.at(-1) ?? "", segments.join("/")].map(squash)
    .filter(Boolean);
  if (names.includes(w)) return 3;
  // "next" finds "nextjs"; "reactjs" finds "react", but "reactivestreams" must not.
  const contained = (n: string) =>
    (n.includes(w) && w.length >= MIN_CONTAINED) ||
    (w.startsWith(n) && n.length >= MIN_CONTAINED && w.length - n.length <= MAX_SUFFIX);
  if (names.some(contained)) return 2;
  if (names.some((n) => editDistance(w, n) <= typoAllowance(w.length))) return 1;
  return 0;
}

/**
 * The best library for a name: the closest name, then a finalized one, then
 * the service's own ranking (which weighs the query). `undefined` when no
 * result is a plausible match.
 */
export function pickLibrary(wanted: string, libraries: Library[]): Library | undefined {
  const ranked = libraries
    .map((library, index) => ({ library, index, match: nameMatch(wanted, library) }))
    .filter((c) => c.match > 0)
    .sort((a, b) =>
      b.match - a.match ||
      Number(b.library.state === "finalized") - Number(a.library.state === "finalized") ||
      a.index - b.index
    );
  return ranked[0]?.library;
}

/** The error for a library Context7 does not know, naming close ones. */
export function libraryNotFound(wanted: string, candidates: Library[]): QuarryError {
  const close = candidates.slice(0, 5).map((l) => `Did you mean ${l.title} (${l.id})?`);
  return new QuarryError("LIBRARY_NOT_FOUND", `Context7 has no library called "${wanted}"`, {
    suggestions: [
      ...close,
      "Check the spelling, or pass a Context7 library ID such as /facebook/react",
    ],
  });
}

function malformed(what: string): QuarryError {
  return new QuarryError("UPSTREAM_ERROR", `Context7 sent an unexpected ${what}`, {
    suggestions: ["Try again later; the API may have changed or be having trouble"],
  });
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** Libraries of a `/v2/libs/search` answer. */
export function parseLibraries(data: unknown): Library[] {
  const results = (data as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw malformed("search answer");
  return results.flatMap((r): Library[] => {
    const id = str(r?.id);
    if (!id) return [];
    const description = str(r.description);
    const state = str(r.state);
    return [{
      id,
      title: str(r.title) ?? id,
      ...(description === undefined ? {} : { description }),
      ...(state === undefined ? {} : { state }),
    }];
  });
}

function codeSnippet(s: Record<string, unknown>): DocSnippet | undefined {
  const list = Array.isArray(s.codeList) ? s.codeList as Record<string, unknown>[] : [];
  const blocks = list.flatMap((c) => {
    const code = str(c?.code);
    return code === undefined ? [] : [`\`\`\`${str(c.language) ?? ""}\n${code}\n\`\`\``];
  });
  const description = str(s.codeDescription);
  const content = [description, ...blocks].filter((p) => p !== undefined).join("\n\n");
  if (!content) return undefined;
  const title = str(s.codeTitle) ?? str(s.pageTitle) ?? "Code example";
  return { title, content, source_url: str(s.codeId) ?? null };
}

function infoSnippet(s: Record<string, unknown>): DocSnippet | undefined {
  const content = str(s.content);
  if (!content) return undefined;
  const title = str(s.breadcrumb) ?? str(s.pageId) ?? "Documentation";
  return { title, content, source_url: str(s.pageId) ?? null };
}

/**
 * Snippets of a `/v2/context` answer in relevance order. Code and prose are
 * ranked in two lists, so they are interleaved by rank: a tight budget then
 * gets the best of both rather than only code.
 */
export function parseContext(data: unknown): DocSnippet[] {
  if (data === null || typeof data !== "object") throw malformed("context answer");
  const d = data as { codeSnippets?: unknown; infoSnippets?: unknown };
  const list = (v: unknown) => Array.isArray(v) ? v as Record<string, unknown>[] : [];
  const code = list(d.codeSnippets).map(codeSnippet).filter((s) => s !== undefined);
  const info = list(d.infoSnippets).map(infoSnippet).filter((s) => s !== undefined);
  const out: DocSnippet[] = [];
  for (let i = 0; i < Math.max(code.length, info.length); i++) {
    if (code[i]) out.push(code[i]!);
    if (info[i]) out.push(info[i]!);
  }
  return out;
}

/** Where and how to call Context7. */
export interface Context7Call {
  baseUrl: string;
  key: string;
  retry: RetryConfig;
}

function headers(call: Context7Call): Record<string, string> {
  return { authorization: `Bearer ${call.key}` };
}

/** `GET /v2/libs/search`; an empty list when Context7 finds nothing. */
export async function searchLibraries(
  deps: HttpDeps,
  call: Context7Call,
  libraryName: string,
  query: string,
): Promise<Library[]> {
  const params = new URLSearchParams({ libraryName, query });
  const res = await requestJson(deps, CONTEXT7, {
    url: `${call.baseUrl}/v2/libs/search?${params}`,
    headers: headers(call),
    accept: [404],
  }, call.retry);
  return res.status === 404 ? [] : parseLibraries(res.data);
}

/** `GET /v2/context` for a library ID, following one library redirect. */
export async function fetchContext(
  deps: HttpDeps,
  call: Context7Call,
  libraryId: string,
  query: string,
  redirects = 1,
): Promise<{ libraryId: string; snippets: DocSnippet[] }> {
  const params = new URLSearchParams({ libraryId, query, type: "json" });
  const res = await requestJson(deps, CONTEXT7, {
    url: `${call.baseUrl}/v2/context?${params}`,
    headers: headers(call),
    accept: [202, 301, 404],
  }, call.retry);
  const body = res.data as { error?: unknown; message?: unknown; redirectUrl?: unknown } | null;
  const target = str(body?.redirectUrl);
  if (res.status === 301 && target && redirects > 0) {
    return await fetchContext(deps, call, target, query, redirects - 1);
  }
  if (res.status === 202) {
    throw new QuarryError("UPSTREAM_ERROR", `Context7 is still processing ${libraryId}`, {
      suggestions: ["Try again in a few minutes"],
    });
  }
  if (res.status === 404 && body?.error === "library_not_found") {
    throw libraryNotFound(libraryId, []);
  }
  if (res.status !== 200) {
    throw new QuarryError(
      "NOT_FOUND",
      `Context7 has no documentation for "${query}" in ${libraryId}`,
      {
        suggestions: ["Rephrase the question with the library's own terms"],
      },
    );
  }
  return { libraryId, snippets: parseContext(res.data) };
}
