/**
 * Search operators: `site:`, `-site:`, `"exact phrase"`, `-term`,
 * `filetype:` and `OR`. A query is parsed once into a {@linkcode ParsedQuery};
 * engines that understand operators get them rendered back
 * ({@linkcode renderQuery}), and {@linkcode matchesQuery} enforces them on
 * every candidate afterwards, because engines ignore some of them silently.
 * @module
 */
import type { Candidate } from "./types.ts";

/** A query split into plain words and operators. */
export interface ParsedQuery {
  /** The query as the user wrote it. */
  raw: string;
  /** Plain words. Sent to engines but not enforced: engines stem and paraphrase. */
  terms: string[];
  /** `"exact phrases"` every candidate must contain. */
  phrases: string[];
  /** `-term` and `-"phrase"`: no candidate may contain them. */
  excluded: string[];
  /** `site:` hosts (with an optional path); a candidate must be on one of them. */
  sites: string[];
  /** `-site:` hosts no candidate may be on. */
  excludedSites: string[];
  /** `filetype:` extensions without the dot; a candidate's path must end with one. */
  filetypes: string[];
  /** `-filetype:` extensions no candidate's path may end with. */
  excludedFiletypes: string[];
  /** `a OR b` groups: a candidate must contain one member of each group. */
  anyOf: string[][];
}

const OR_WORDS = new Set(["OR", "|"]);
const SPACE = /\s/;
const SPACES = /\s+/g;
const SCHEME = /^[a-z]+:\/\//;
const TRAILING_SLASHES = /\/+$/;
const SITE_PREFIX = /^site:/i;
const FILETYPE_PREFIX = /^(?:filetype|ext):/i;
/** Anything that is not a letter or digit separates words when matching. */
const NON_WORD = /[^\p{L}\p{N}]+/gu;
const LEADING_DOT = /^\.+/;

type Clause =
  | { kind: "term" | "phrase"; text: string; negated: boolean }
  | { kind: "site" | "filetype"; text: string; negated: boolean }
  | { kind: "or" };

/** Splits the raw query into clauses, keeping quoted text together. */
function tokenize(raw: string): Clause[] {
  const clauses: Clause[] = [];
  let i = 0;
  while (i < raw.length) {
    if (SPACE.test(raw[i]!)) {
      i++;
      continue;
    }
    let negated = false;
    if (raw[i] === "-" && i + 1 < raw.length && !SPACE.test(raw[i + 1]!)) {
      negated = true;
      i++;
    }
    if (raw[i] === '"') {
      // An unterminated quote runs to the end, as engines read it.
      const end = raw.indexOf('"', i + 1);
      const text = raw.slice(i + 1, end === -1 ? raw.length : end).trim().replace(SPACES, " ");
      i = end === -1 ? raw.length : end + 1;
      if (text) clauses.push({ kind: "phrase", text, negated });
      continue;
    }
    let end = i;
    while (end < raw.length && !SPACE.test(raw[end]!)) end++;
    const word = raw.slice(i, end);
    i = end;
    if (!negated && OR_WORDS.has(word)) clauses.push({ kind: "or" });
    else if (SITE_PREFIX.test(word) && word.length > 5) {
      clauses.push({ kind: "site", text: cleanSite(word.replace(SITE_PREFIX, "")), negated });
    } else if (FILETYPE_PREFIX.test(word) && word.includes(":") && !word.endsWith(":")) {
      const ext = word.slice(word.indexOf(":") + 1).replace(LEADING_DOT, "").toLowerCase();
      clauses.push({ kind: "filetype", text: ext, negated });
    } else clauses.push({ kind: "term", text: word, negated });
  }
  return clauses;
}

function cleanSite(text: string): string {
  return text.toLowerCase().replace(SCHEME, "").replace(TRAILING_SLASHES, "");
}

/**
 * Parses operators out of a query.
 *
 * @example
 * ```ts
 * parseQuery('deno kv site:deno.com -"deno deploy"');
 * // terms ["deno","kv"], sites ["deno.com"], excluded ["deno deploy"]
 * ```
 */
export function parseQuery(raw: string): ParsedQuery {
  const parsed: ParsedQuery = {
    raw,
    terms: [],
    phrases: [],
    excluded: [],
    sites: [],
    excludedSites: [],
    filetypes: [],
    excludedFiletypes: [],
    anyOf: [],
  };
  const clauses = tokenize(raw);
  // Gather runs `x OR y OR z` first; a lone OR at either end is a plain word.
  const used = new Set<number>();
  for (let i = 0; i < clauses.length; i++) {
    if (clauses[i]!.kind !== "or") continue;
    const left = clauses[i - 1];
    const right = clauses[i + 1];
    if (!isAlternative(left) || !isAlternative(right)) continue;
    let start = i - 1;
    while (start >= 2 && clauses[start - 1]!.kind === "or" && isAlternative(clauses[start - 2])) {
      start -= 2;
    }
    let end = i + 1;
    while (clauses[end + 1]?.kind === "or" && isAlternative(clauses[end + 2])) end += 2;
    const members: Clause[] = [];
    for (let k = start; k <= end; k++) {
      used.add(k);
      if (clauses[k]!.kind !== "or") members.push(clauses[k]!);
    }
    addGroup(parsed, members);
    i = end;
  }
  clauses.forEach((clause, index) => {
    if (!used.has(index)) addClause(parsed, clause);
  });
  return parsed;
}

function isAlternative(clause: Clause | undefined): boolean {
  return clause !== undefined && clause.kind !== "or" && !clause.negated;
}

function addGroup(parsed: ParsedQuery, members: Clause[]): void {
  // `site:a OR site:b` is the common case: several sites already mean "any of".
  const sites = members.filter((m) => m.kind === "site");
  const types = members.filter((m) => m.kind === "filetype");
  const words = members.filter((m) => m.kind === "term" || m.kind === "phrase");
  for (const m of [...sites, ...types]) addClause(parsed, m);
  const texts = words.map((m) => (m as { text: string }).text);
  if (texts.length > 1) parsed.anyOf.push(texts);
  else if (words[0]) addClause(parsed, words[0]);
}

function addClause(parsed: ParsedQuery, clause: Clause): void {
  if (clause.kind === "or") {
    parsed.terms.push("OR");
    return;
  }
  const list = {
    term: clause.negated ? parsed.excluded : parsed.terms,
    phrase: clause.negated ? parsed.excluded : parsed.phrases,
    site: clause.negated ? parsed.excludedSites : parsed.sites,
    filetype: clause.negated ? parsed.excludedFiletypes : parsed.filetypes,
  }[clause.kind];
  if (!list.includes(clause.text)) list.push(clause.text);
}

/** How an engine wants the query written. */
export interface RenderOptions {
  /** The engine understands `site:`, quotes, `-term`, `filetype:` and `OR`. @default {true} */
  operators?: boolean;
}

function quote(text: string): string {
  return text.includes(" ") ? `"${text}"` : text;
}

/**
 * Writes a parsed query back as text for an engine. Without operator support
 * only the words and phrases are sent; {@linkcode matchesQuery} does the rest.
 *
 * @example
 * ```ts
 * renderQuery(parseQuery('a "b c" site:x.org'), { operators: false }); // 'a b c'
 * ```
 */
export function renderQuery(parsed: ParsedQuery, options: RenderOptions = {}): string {
  const parts: string[] = [];
  if (options.operators ?? true) {
    parts.push(...parsed.terms, ...parsed.phrases.map((p) => `"${p}"`));
    for (const group of parsed.anyOf) parts.push(group.map(quote).join(" OR "));
    parts.push(...parsed.excluded.map((e) => `-${quote(e)}`));
    if (parsed.sites.length > 0) parts.push(parsed.sites.map((s) => `site:${s}`).join(" OR "));
    parts.push(...parsed.excludedSites.map((s) => `-site:${s}`));
    if (parsed.filetypes.length > 0) {
      parts.push(parsed.filetypes.map((f) => `filetype:${f}`).join(" OR "));
    }
    parts.push(...parsed.excludedFiletypes.map((f) => `-filetype:${f}`));
  } else {
    parts.push(...parsed.terms, ...parsed.phrases, ...parsed.anyOf.flat());
  }
  return parts.join(" ");
}

/** True when the query has operators a candidate could fail. */
export function hasOperators(parsed: ParsedQuery): boolean {
  return parsed.phrases.length + parsed.excluded.length + parsed.sites.length +
      parsed.excludedSites.length + parsed.filetypes.length + parsed.excludedFiletypes.length +
      parsed.anyOf.length > 0;
}

/** Words of a text, lower-cased, between spaces so `includes` matches whole words. */
function wordText(text: string): string {
  return ` ${text.toLowerCase().replace(NON_WORD, " ").trim()} `;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `site:example.com/docs` matches example.com and its subdomains, under /docs. */
function onSite(url: URL, site: string): boolean {
  const slash = site.indexOf("/");
  const host = slash === -1 ? site : site.slice(0, slash);
  const path = slash === -1 ? "" : site.slice(slash);
  const hostname = url.hostname.toLowerCase();
  const hostOk = hostname === host || hostname.endsWith(`.${host}`);
  return hostOk && (path === "" || url.pathname.toLowerCase().startsWith(path));
}

/**
 * Whether a candidate satisfies the query's operators. Plain words are not
 * checked; phrases and excluded words are looked up as whole words in the
 * title, snippet and URL.
 *
 * @example
 * ```ts
 * matchesQuery({ url: "https://a.org/x.pdf", title: "", snippet: "", engine: "bing", rank: 1 },
 *   parseQuery("report filetype:pdf site:a.org")); // true
 * ```
 */
export function matchesQuery(candidate: Candidate, parsed: ParsedQuery): boolean {
  let url: URL;
  try {
    url = new URL(candidate.url);
  } catch {
    return false;
  }
  if (parsed.sites.length > 0 && !parsed.sites.some((s) => onSite(url, s))) return false;
  if (parsed.excludedSites.some((s) => onSite(url, s))) return false;
  const path = safeDecode(url.pathname).toLowerCase();
  if (parsed.filetypes.length > 0 && !parsed.filetypes.some((f) => path.endsWith(`.${f}`))) {
    return false;
  }
  if (parsed.excludedFiletypes.some((f) => path.endsWith(`.${f}`))) return false;
  const hay = wordText(`${candidate.title} ${candidate.snippet} ${safeDecode(candidate.url)}`);
  const has = (text: string) => {
    const needle = wordText(text);
    return needle.trim() === "" || hay.includes(needle);
  };
  if (!parsed.phrases.every(has)) return false;
  if (parsed.excluded.some((e) => wordText(e).trim() !== "" && has(e))) return false;
  return parsed.anyOf.every((group) => group.some(has));
}
