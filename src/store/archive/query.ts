/**
 * Archive queries: user text → a parsed query → an FTS5 `MATCH` expression
 * built only from quoted tokens. User text never reaches FTS5 as written, so
 * no query can raise a syntax error; Quarry's own operators (`"phrase"`,
 * `-term`, `+term`, `OR`, `term*`) are parsed here and translated.
 * @module
 */
import { eng as ENGLISH_STOP_WORDS } from "stopword";

/** A term or phrase (several tokens), optionally a prefix; or alternatives. */
export type QueryNode =
  | { kind: "term"; tokens: string[]; prefix: boolean }
  | { kind: "any"; of: QueryNode[] };

/** A parsed query: terms that rank (any may match), that must match, that must not. */
export interface ParsedQuery {
  should: QueryNode[];
  must: QueryNode[];
  not: QueryNode[];
}

/** Limits that keep a huge query cheap. */
export interface QueryParseConfig {
  /** Characters of user text read; the rest is ignored. @default {4000} */
  maxChars: number;
  /** Clauses kept, in order. @default {64} */
  maxClauses: number;
  /** Tokens kept in one phrase. @default {16} */
  maxPhraseTokens: number;
}

/** Defaults of {@linkcode QueryParseConfig}. */
export const DEFAULT_QUERY_PARSE_CONFIG: QueryParseConfig = {
  maxChars: 4000,
  maxClauses: 64,
  maxPhraseTokens: 16,
};

/** Words of the query language, and what separates a token like FTS5's unicode61 does. */
const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;
/** Brackets and list punctuation separate words; `-`, `'`, `.`, `/` join a word into a phrase. */
const LEXEME = /[\s()[\]{},;]*([+-]?)(?:"([^"]*)"?|([^\s"()[\]{},;]+))/y;
const OR_WORDS = new Set(["OR", "|"]);

/** English stop words, dropped from ranking terms unless nothing else is left. */
export const STOP_WORDS: ReadonlySet<string> = new Set(ENGLISH_STOP_WORDS);

/** Lower-cased, accent-free word tokens of a text, as the archive's tokenizer sees them. */
export function queryTokens(text: string): string[] {
  return text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase().match(WORD) ?? [];
}

interface Lexeme {
  sign: "" | "+" | "-";
  text: string;
  quoted: boolean;
}

function lex(text: string): Lexeme[] {
  const out: Lexeme[] = [];
  LEXEME.lastIndex = 0;
  for (let m = LEXEME.exec(text); m && m[0].length > 0; m = LEXEME.exec(text)) {
    const quoted = m[2] !== undefined;
    out.push({ sign: m[1] as Lexeme["sign"], text: quoted ? m[2]! : m[3]!, quoted });
  }
  return out;
}

function termOf(lexeme: Lexeme, config: QueryParseConfig): QueryNode | undefined {
  const prefix = !lexeme.quoted && lexeme.text.endsWith("*");
  const tokens = queryTokens(lexeme.text).slice(0, config.maxPhraseTokens);
  return tokens.length === 0 ? undefined : { kind: "term", tokens, prefix };
}

/**
 * Parses user text. Plain words rank (any may match); `"a phrase"` and
 * `+word` must match; `-word` / `-"a phrase"` / `NOT word` must not;
 * `a OR b` makes alternatives; `word*` matches a prefix. Punctuation is only
 * a separator, so `NEAR(`, `*` or `'; DROP TABLE` are plain words or nothing.
 *
 * @example
 * ```ts
 * parseQuery('"vitamin d" deficiency -mice');
 * // { must: [vitamin d], should: [deficiency], not: [mice] }
 * ```
 */
export function parseQuery(
  text: string,
  config: QueryParseConfig = DEFAULT_QUERY_PARSE_CONFIG,
): ParsedQuery {
  const parsed: ParsedQuery = { should: [], must: [], not: [] };
  const lexemes = lex(text.slice(0, config.maxChars));
  let negateNext = false;
  let clauses = 0;
  for (let i = 0; i < lexemes.length && clauses < config.maxClauses; i++) {
    const lexeme = lexemes[i]!;
    if (!lexeme.quoted && lexeme.sign === "") {
      if (lexeme.text === "NOT") {
        negateNext = true;
        continue;
      }
      if (lexeme.text === "AND" || OR_WORDS.has(lexeme.text)) continue;
    }
    const node = termOf(lexeme, config);
    const negated = negateNext || lexeme.sign === "-";
    negateNext = false;
    if (!node) continue;
    clauses++;
    if (negated) {
      parsed.not.push(node);
      continue;
    }
    // Collect `x OR y OR z` into one group of alternatives.
    const group: QueryNode[] = [node];
    let required = lexeme.quoted || lexeme.sign === "+";
    while (i + 2 < lexemes.length && isOr(lexemes[i + 1]!)) {
      const next = lexemes[i + 2]!;
      i += 2;
      const alt = next.sign === "-" ? undefined : termOf(next, config);
      if (alt) {
        group.push(alt);
        required ||= next.quoted || next.sign === "+";
      }
    }
    if (required) parsed.must.push(group.length === 1 ? node : { kind: "any", of: group });
    else if (group.length > 1) parsed.should.push({ kind: "any", of: group });
    else parsed.should.push(...splitWord(node));
  }
  return parsed;
}

/**
 * An unquoted word such as `alpha-synuclein` or `covid-19` ranks as separate
 * words: a phrase would demand the exact spelling, while its words still
 * find "alpha synuclein" and rank the hyphenated form highest.
 */
function splitWord(node: QueryNode): QueryNode[] {
  if (node.kind !== "term" || node.tokens.length === 1) return [node];
  const last = node.tokens.length - 1;
  return node.tokens.map((token, i) => ({
    kind: "term",
    tokens: [token],
    prefix: i === last && node.prefix,
  }));
}

function isOr(lexeme: Lexeme): boolean {
  return !lexeme.quoted && lexeme.sign === "" && OR_WORDS.has(lexeme.text);
}

/** True when the query has nothing that could match. */
export function isEmptyQuery(query: ParsedQuery): boolean {
  return query.should.length === 0 && query.must.length === 0;
}

/** The FTS5 spelling of a node: tokens inside double quotes, which FTS5 takes literally. */
export function nodeToFts(node: QueryNode): string {
  if (node.kind === "any") return `(${node.of.map(nodeToFts).join(" OR ")})`;
  // Tokens hold only letters and digits, so they cannot close the quotes.
  return `"${node.tokens.join(" ")}"${node.prefix ? "*" : ""}`;
}

/** Column names the archive's full-text table has, in order, that users search. */
export const SEARCH_FIELDS = ["title", "content", "query"] as const;

/** A searchable column. */
export type SearchField = typeof SEARCH_FIELDS[number];

/**
 * A token every document holds in its `every` column. It is a private-use
 * character: FTS5's unicode61 keeps it as a token, while user text can never
 * produce it (query tokens are letters and digits only).
 */
export const EVERY_TOKEN = "\uE000";

/** The two MATCH expressions of a search: one ranks hits, one counts them. */
export interface MatchPlan {
  /** Selects candidates and scores them with every ranking term. */
  rank: string;
  /** Selects every matching document, for the total. */
  count: string;
  /** Every user term, for highlighting. */
  highlight: string;
}

/** Which ranking terms select candidates; the rest only add to the score. */
export interface MatchSplit {
  select: QueryNode[];
  rankOnly: QueryNode[];
}

/**
 * Builds the MATCH expressions of a parsed query, or `undefined` when it can
 * match nothing. Terms that only rank are OR-ed with {@linkcode EVERY_TOKEN},
 * which every document has: the group never narrows the candidates, yet each
 * of its terms still adds to BM25. That is how `"must" word` keeps `word`
 * optional, and how `split` scores a few candidates (documents with a rare
 * term) with all terms instead of scoring every document with a common one.
 */
export function planMatch(
  query: ParsedQuery,
  fields?: readonly SearchField[],
  split?: MatchSplit,
): MatchPlan | undefined {
  if (isEmptyQuery(query)) return undefined;
  const colset = fields && fields.length > 0 && fields.length < SEARCH_FIELDS.length
    ? `{${fields.join(" ")}} : `
    : "";
  const fts = (node: QueryNode) => `${colset}${nodeToFts(node)}`;
  const any = (nodes: QueryNode[]) =>
    nodes.length === 1 ? fts(nodes[0]!) : `(${nodes.map(fts).join(" OR ")})`;
  const all = (nodes: QueryNode[]) => nodes.map(fts).join(" AND ");
  const not = query.not.length === 0 ? "" : ` NOT ${any(query.not)}`;
  const every = `"${EVERY_TOKEN}"`;
  let rank: string;
  let count: string;
  if (query.must.length > 0) {
    count = all(query.must);
    rank = query.should.length === 0
      ? count
      : `${count} AND (${query.should.map(fts).join(" OR ")} OR ${every})`;
  } else {
    count = any(query.should);
    if (!split || split.select.length === 0) rank = count;
    else if (split.rankOnly.length === 0) rank = any(split.select);
    else rank = `${any(split.select)} AND (${split.rankOnly.map(fts).join(" OR ")} OR ${every})`;
  }
  const highlight = [...query.must, ...query.should].map(fts).join(" OR ");
  return { rank: `(${rank})${not}`, count: `(${count})${not}`, highlight };
}
