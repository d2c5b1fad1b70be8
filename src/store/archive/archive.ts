/**
 * The archive: every page Quarry read, every indexed file, and the citation
 * graph between them, in one SQLite file (`node:sqlite`, FTS5). Writes go in
 * one transaction per batch; a document read again updates its row and is
 * never duplicated.
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { stemmer } from "stemmer";
import { QuarryError } from "../../errors.ts";
import { canonicalUrl } from "../../text/url.ts";
import { expandFuzzy, refreshVocabulary } from "./fuzzy.ts";
import { EVERY_TOKEN, parseQuery } from "./query.ts";
import {
  citationMentions,
  DEFAULT_SEARCH_CONFIG,
  rankDocuments,
  type SearchConfig,
  type TermStats,
} from "./search.ts";
import { listDocuments, type ListOptions } from "./list.ts";
import { migrate } from "./schema.ts";
import { Sql } from "./sql.ts";
import type {
  ArchivedDocument,
  ArchiveStats,
  CitationInput,
  DocumentInput,
  ExportOptions,
  GraphFormat,
  RelatedDocument,
  SearchHit,
  SearchOptions,
  SearchResult,
  UpsertOutcome,
} from "./types.ts";
import { type DocumentRow, rowToDocument, writeDocuments } from "./write.ts";
import { pathOfFileUrl } from "../graph/citations.ts";
import { formatGraph } from "../graph/export.ts";
import { buildGraph } from "../graph/read.ts";
import { type EdgeRow, type WalkDirection, walkGraph } from "../graph/walk.ts";
import { DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from "../graph/similar.ts";

export type * from "./types.ts";

/** How the archive is opened and searched. */
export interface ArchiveConfig {
  /** Wait this long for another writer before failing. @default {5000} */
  busyTimeoutMs: number;
  /** Page cache per connection, KiB. @default {65536} */
  cacheKiB: number;
  search: SearchConfig;
  similarity: SimilarityConfig;
  /** Neighbours listed per direction for a search hit's citations. @default {20} */
  maxHitCitations: number;
}

/** Defaults of {@linkcode ArchiveConfig}. */
export const DEFAULT_ARCHIVE_CONFIG: ArchiveConfig = {
  busyTimeoutMs: 5000,
  cacheKiB: 65536,
  search: DEFAULT_SEARCH_CONFIG,
  similarity: DEFAULT_SIMILARITY_CONFIG,
  maxHitCitations: 20,
};

/** A file recorded by folder indexing. */
export interface IndexStateRow {
  path: string;
  root: string;
  mtime: number;
  size: number;
  hash: string;
  document_id: number | null;
}

/** Where a related-documents walk starts, and what it found. */
export interface RelatedResult {
  document: ArchivedDocument;
  related: RelatedDocument[];
}

const DIGITS = /^\d+$/;
/** Edges listed first: archived targets, then explicit citations, then strongest. */
const EDGE_ORDER = "ORDER BY (target_id IS NULL), kind = 'link', confidence DESC, id";

/** The archive. Methods are synchronous: SQLite runs in-process. */
export class Archive {
  readonly path: string;
  readonly #sql: Sql;
  readonly #config: ArchiveConfig;
  /** Document frequency per query token; cleared by every write. */
  readonly #docFreq = new Map<string, number>();

  private constructor(path: string, sql: Sql, config: ArchiveConfig) {
    this.path = path;
    this.#sql = sql;
    this.#config = config;
  }

  /** Opens (creating and migrating when needed) the archive at `path`. */
  static open(path: string, config: Partial<ArchiveConfig> = {}): Archive {
    const full = { ...DEFAULT_ARCHIVE_CONFIG, ...config };
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path);
    } catch (error) {
      throw new QuarryError("PERMISSION_DENIED", `Cannot open the archive "${path}"`, {
        suggestions: ["Point QUARRY_HOME at a writable directory"],
        cause: error,
      });
    }
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(full.busyTimeoutMs)}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    db.exec(`PRAGMA cache_size = -${Math.trunc(full.cacheKiB)}`);
    migrate(db);
    return new Archive(path, new Sql(db), full);
  }

  /** Adds or updates documents in one transaction, in order; never duplicates one. */
  upsertDocuments(docs: DocumentInput[]): UpsertOutcome[] {
    this.#docFreq.clear();
    return this.#sql.transaction(() => writeDocuments(this.#sql, docs, this.#config.similarity));
  }

  /**
   * Stores citations (an existing edge gets the new context and confidence).
   * A target URL is canonicalised and linked to its archived document.
   */
  addCitations(citations: CitationInput[]): number {
    return this.#sql.transaction(() => {
      let added = 0;
      for (const c of citations) {
        const targetUrl = c.targetUrl ? canonicalUrl(c.targetUrl) : null;
        const targetId = c.targetId != null
          ? Number(c.targetId)
          : targetUrl === null
          ? null
          : this.#targetOf(targetUrl);
        if (targetId === Number(c.sourceId)) continue;
        added += this.#sql.run(
          `INSERT INTO citations(source_id, target_url, target_id, context, confidence, kind)
             VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT DO UPDATE SET context = excluded.context, confidence = excluded.confidence`,
          Number(c.sourceId),
          targetUrl,
          targetId,
          c.context,
          Math.min(1, Math.max(0.01, c.confidence)),
          c.kind,
        ).changes;
      }
      return added;
    });
  }

  /** The document a canonical URL names: by URL, or by path for a `file:` URL. */
  #targetOf(targetUrl: string): number | null {
    const path = pathOfFileUrl(targetUrl);
    return this.#sql.get<{ id: number }>(
      path === undefined
        ? "SELECT min(id) AS id FROM documents WHERE canonical_url = ?"
        : "SELECT min(id) AS id FROM documents WHERE path = ?",
      path ?? targetUrl,
    )?.id ?? null;
  }

  /**
   * Links citations of indexed files to files indexed after them (a `file:`
   * target has no URL for the insert trigger to match). Returns how many were linked.
   */
  linkFileCitations(): number {
    const open = this.#sql.all<{ id: number; source_id: number; target_url: string }>(
      "SELECT id, source_id, target_url FROM citations WHERE target_id IS NULL AND target_url LIKE 'file:%'",
    );
    let linked = 0;
    this.#sql.transaction(() => {
      for (const c of open) {
        const target = this.#targetOf(c.target_url);
        if (target === null || target === c.source_id) continue;
        linked += this.#sql.run("UPDATE citations SET target_id = ? WHERE id = ?", target, c.id)
          .changes;
      }
    });
    return linked;
  }

  /** Replaces the outgoing citations of the given kinds of one document. */
  replaceCitations(sourceId: string, kinds: string[], citations: CitationInput[]): number {
    return this.#sql.transaction(() => {
      this.#sql.run(
        "DELETE FROM citations WHERE source_id = ? AND kind IN (SELECT value FROM json_each(?))",
        Number(sourceId),
        JSON.stringify(kinds),
      );
      return this.addCitations(citations);
    });
  }

  /**
   * Searches the archive; never throws on what the user typed. Without
   * words it lists the documents that pass the filters, newest first.
   */
  search(text: string, options: SearchOptions = {}): SearchResult {
    if (text.trim() === "") {
      const { hits, total } = listDocuments(this.#sql, options);
      return { hits, total, totalEstimated: false, expansions: {} };
    }
    let query = parseQuery(text);
    let expansions: Record<string, string[]> = {};
    if (options.fuzzy) {
      refreshVocabulary(this.#sql);
      ({ query, expansions } = expandFuzzy(this.#sql, query));
    }
    const { hits, total, estimated, highlight } = rankDocuments(
      this.#sql,
      query,
      options,
      this.#config.search,
      this.#stats,
    );
    if (options.citations) {
      const depth = Math.max(1, options.depth ?? 1);
      for (const hit of hits) {
        hit.cites = this.#walk(Number(hit.id), depth, "out", this.#config.maxHitCitations);
        hit.citedBy = this.#walk(Number(hit.id), depth, "in", this.#config.maxHitCitations);
        if (highlight) {
          hit.mentions = citationMentions(
            this.#sql,
            highlight,
            Number(hit.id),
            this.#config.search,
          );
        }
      }
    }
    return { hits, total, totalEstimated: estimated, expansions };
  }

  /** Term statistics for query planning, cached until the next write. */
  readonly #stats: TermStats = {
    docFreq: (token) => {
      let n = this.#docFreq.get(token);
      if (n === undefined) {
        // The index stores Porter stems, so the vocabulary is looked up by stem.
        n = this.#sql.get<{ doc: number }>(
          "SELECT doc FROM document_vocab WHERE term = ?",
          stemmer(token),
        )?.doc ?? 0;
        this.#docFreq.set(token, n);
      }
      return n;
    },
    documents: () => {
      let n = this.#docFreq.get(EVERY_TOKEN);
      if (n === undefined) {
        n = this.#sql.get<{ n: number }>("SELECT count(*) AS n FROM documents")?.n ?? 0;
        this.#docFreq.set(EVERY_TOKEN, n);
      }
      return n;
    },
  };

  /** Documents that pass the filters, newest first (see {@linkcode listDocuments}). */
  list(options: ListOptions = {}): { hits: SearchHit[]; total: number } {
    return listDocuments(this.#sql, options);
  }

  /** The id of a document given by id or by URL, or undefined. */
  resolve(idOrUrl: string): string | undefined {
    const text = idOrUrl.trim();
    const row = DIGITS.test(text)
      ? this.#sql.get<{ id: number }>("SELECT id FROM documents WHERE id = ?", Number(text))
      : this.#sql.get<{ id: number }>(
        "SELECT id FROM documents WHERE canonical_url = ? OR path = ? ORDER BY id LIMIT 1",
        canonicalUrl(text),
        text,
      );
    return row ? String(row.id) : undefined;
  }

  /** One document with its text, or undefined. */
  get(id: string): ArchivedDocument | undefined {
    if (!DIGITS.test(id.trim())) return undefined;
    const row = this.#sql.get<DocumentRow>(
      `SELECT d.*, c.content, c.query FROM documents d
         JOIN document_content c ON c.rowid = d.id WHERE d.id = ?`,
      Number(id),
    );
    return row ? rowToDocument(row) : undefined;
  }

  /** Keeps what a read page needs beyond its text to be rebuilt (see `document_pages`). */
  keepPage(id: string, page: Record<string, unknown>): void {
    this.#sql.run(
      "INSERT OR REPLACE INTO document_pages(document_id, page) VALUES (?, ?)",
      Number(id),
      JSON.stringify(page),
    );
  }

  /** What {@linkcode keepPage} kept for a document, or undefined. */
  keptPage(id: string): Record<string, unknown> | undefined {
    if (!DIGITS.test(id.trim())) return undefined;
    const row = this.#sql.get<{ page: string }>(
      "SELECT page FROM document_pages WHERE document_id = ?",
      Number(id),
    );
    const value: unknown = row ? JSON.parse(row.page) : undefined;
    return value && typeof value === "object" ? value as Record<string, unknown> : undefined;
  }

  /** Documents cited by, citing, or similar to a document, to `depth` levels. */
  related(idOrUrl: string, depth = 1, maxSteps = 100): RelatedResult | undefined {
    const id = this.resolve(idOrUrl);
    const document = id === undefined ? undefined : this.get(id);
    if (!document) return undefined;
    return { document, related: this.#walk(Number(id), Math.max(1, depth), "both", maxSteps) };
  }

  #walk(start: number, depth: number, direction: WalkDirection, maxSteps: number) {
    const edgesOf = (ids: number[], dir: WalkDirection): EdgeRow[] => {
      const list = JSON.stringify(ids);
      const out = "SELECT * FROM citations WHERE source_id IN (SELECT value FROM json_each(?))";
      const into = "SELECT * FROM citations WHERE target_id IN (SELECT value FROM json_each(?))";
      // Similarity is not citation: a hit's cites/cited-by lists leave it out.
      if (dir === "out") return this.#sql.all(`${out} AND kind <> 'similar' ${EDGE_ORDER}`, list);
      if (dir === "in") return this.#sql.all(`${into} AND kind <> 'similar' ${EDGE_ORDER}`, list);
      return this.#sql.all(`SELECT * FROM (${out} UNION ${into}) ${EDGE_ORDER}`, list, list);
    };
    const steps = walkGraph(start, depth, edgesOf, { direction, maxSteps });
    const ids = steps.flatMap((s) => s.id === null ? [] : [s.id]);
    const known = new Map(
      this.#sql.all<{ id: number; url: string | null; title: string }>(
        "SELECT id, url, title FROM documents WHERE id IN (SELECT value FROM json_each(?))",
        JSON.stringify(ids),
      ).map((r) => [r.id, r]),
    );
    return steps.map((s): RelatedDocument => ({
      id: s.id === null ? null : String(s.id),
      url: s.id === null ? s.url : known.get(s.id)?.url ?? null,
      title: s.id === null ? null : known.get(s.id)?.title ?? null,
      relation: s.relation,
      kind: s.kind,
      context: s.context,
      confidence: s.confidence,
      depth: s.depth,
      from: String(s.from),
    }));
  }

  /** Counts and sizes. */
  stats(): ArchiveStats {
    const count = (sql: string) => this.#sql.get<{ n: number }>(sql)?.n ?? 0;
    const groups = (sql: string) =>
      Object.fromEntries(this.#sql.all<{ k: string; n: number }>(sql).map((r) => [r.k, r.n]));
    const dates = this.#sql.get<{ oldest: string | null; newest: string | null }>(
      "SELECT min(fetched_at) AS oldest, max(fetched_at) AS newest FROM documents",
    );
    return {
      documents: count("SELECT count(*) AS n FROM documents"),
      bySource: groups("SELECT source AS k, count(*) AS n FROM documents GROUP BY source"),
      citations: count("SELECT count(*) AS n FROM citations"),
      byKind: groups("SELECT kind AS k, count(*) AS n FROM citations GROUP BY kind"),
      resolvedCitations: count("SELECT count(*) AS n FROM citations WHERE target_id IS NOT NULL"),
      queries: count("SELECT count(*) AS n FROM queries"),
      indexedFiles: count("SELECT count(*) AS n FROM index_state"),
      oldest: dates?.oldest ?? null,
      newest: dates?.newest ?? null,
      bytes: count(
        "SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()",
      ),
    };
  }

  /** The citation graph as JSON, GraphML or DOT text. */
  exportGraph(format: GraphFormat, options: ExportOptions = {}): string {
    return formatGraph(buildGraph(this.#sql, options), format);
  }

  /**
   * Removes the documents indexed from a file (`path`, and `path#n` for the
   * pages of a JSON list) and its index record. With `keep`, only documents
   * whose path is not in it go, and the index record stays.
   */
  deleteByPath(path: string, keep?: string[]): boolean {
    this.#docFreq.clear();
    return this.#sql.transaction(() => {
      if (keep === undefined) this.#sql.run("DELETE FROM index_state WHERE path = ?", path);
      return this.#sql.run(
        `DELETE FROM documents WHERE (path = ? OR (path > ? AND path < ?))
           AND path NOT IN (SELECT value FROM json_each(?))`,
        path,
        `${path}#`,
        `${path}$`, // '$' follows '#': the range holds exactly the paths starting "path#".
        JSON.stringify(keep ?? []),
      ).changes > 0;
    });
  }

  /** Files recorded by folder indexing at or under a path. */
  indexState(root: string): IndexStateRow[] {
    const dir = root.replace(/\/+$/, "");
    return this.#sql.all<IndexStateRow>(
      "SELECT * FROM index_state WHERE path = ? OR (path > ? AND path < ?) ORDER BY path",
      dir,
      `${dir}/`,
      `${dir}0`, // '0' follows '/': the range holds exactly the paths under "dir/".
    );
  }

  /** Records (or updates) a file seen by folder indexing. */
  setIndexState(rows: IndexStateRow[]): void {
    this.#sql.transaction(() => {
      for (const r of rows) {
        this.#sql.run(
          `INSERT INTO index_state(path, root, mtime, size, hash, document_id)
             VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT(path) DO UPDATE SET root = excluded.root, mtime = excluded.mtime,
             size = excluded.size, hash = excluded.hash, document_id = excluded.document_id`,
          r.path,
          r.root,
          r.mtime,
          r.size,
          r.hash,
          r.document_id,
        );
      }
    });
  }

  /** Appends a query to the research history. */
  recordQuery(query: string, command: string, at: string, documentIds: string[] = []): void {
    this.#sql.run(
      "INSERT INTO queries(query, command, created_at, document_ids) VALUES (?, ?, ?, ?)",
      query,
      command,
      at,
      JSON.stringify(documentIds.map(Number)),
    );
  }

  /** Merges the full-text index into one segment; worth it after a large batch. */
  optimize(): void {
    this.#sql.run("INSERT INTO document_content(document_content) VALUES ('optimize')");
  }

  /** Runs a function in one transaction (several batches committed together). */
  transaction<T>(fn: () => T): T {
    return this.#sql.transaction(fn);
  }

  /** Closes the database. */
  close(): void {
    if (this.#sql.db.isOpen) this.#sql.db.close();
  }
}
