/**
 * The archive's schema as numbered migrations. `PRAGMA user_version` holds
 * the number of migrations applied, so opening an archive of any age brings
 * it up to date, and opening a current one changes nothing.
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** Tokenizer of the full-text tables: stemmed English, case and accent blind. */
export const TEXT_TOKENIZER = "porter unicode61 remove_diacritics 1";

/** Each entry is one migration; its index + 1 is the version it brings the archive to. */
export const MIGRATIONS: readonly string[] = [
  `
  -- AUTOINCREMENT: an id is never reused, so an id kept elsewhere (the KV
  -- page cache, a report) can never come to name another document.
  CREATE TABLE documents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT,
    canonical_url TEXT,
    title TEXT NOT NULL DEFAULT '',
    byline TEXT,
    site TEXT,
    lang TEXT,
    published_at TEXT,
    fetched_at TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('web', 'research', 'url-content', 'file')),
    type TEXT NOT NULL DEFAULT 'html',
    path TEXT,
    content_hash TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata))
  );
  -- A web page is one row per canonical URL; a file one row per path.
  CREATE UNIQUE INDEX documents_web_url ON documents(canonical_url)
    WHERE path IS NULL AND canonical_url IS NOT NULL;
  CREATE UNIQUE INDEX documents_path ON documents(path) WHERE path IS NOT NULL;
  CREATE INDEX documents_canonical ON documents(canonical_url);
  CREATE INDEX documents_site ON documents(site);
  CREATE INDEX documents_source ON documents(source, type);
  CREATE INDEX documents_date ON documents(coalesce(published_at, fetched_at));
  CREATE INDEX documents_hash ON documents(content_hash);

  -- "every" holds one token every row has (EVERY_TOKEN): see planMatch().
  CREATE VIRTUAL TABLE document_content USING fts5(
    title, content, query, every, tokenize = '${TEXT_TOKENIZER}'
  );
  CREATE TRIGGER documents_delete_content AFTER DELETE ON documents BEGIN
    DELETE FROM document_content WHERE rowid = old.id;
  END;

  CREATE TABLE citations (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    target_url TEXT,
    target_id INTEGER REFERENCES documents(id) ON DELETE SET NULL,
    context TEXT NOT NULL DEFAULT '',
    confidence REAL NOT NULL CHECK (confidence > 0 AND confidence <= 1),
    kind TEXT NOT NULL CHECK (kind IN ('link', 'citation', 'similar'))
  );
  CREATE UNIQUE INDEX citations_edge
    ON citations(source_id, kind, ifnull(target_url, ''), ifnull(target_id, 0));
  CREATE INDEX citations_target_id ON citations(target_id);
  CREATE INDEX citations_target_url ON citations(target_url);

  CREATE VIRTUAL TABLE citation_content USING fts5(
    context, content = 'citations', content_rowid = 'id', tokenize = '${TEXT_TOKENIZER}'
  );
  CREATE TRIGGER citations_ai AFTER INSERT ON citations BEGIN
    INSERT INTO citation_content(rowid, context) VALUES (new.id, new.context);
  END;
  CREATE TRIGGER citations_ad AFTER DELETE ON citations BEGIN
    INSERT INTO citation_content(citation_content, rowid, context)
      VALUES ('delete', old.id, old.context);
  END;
  CREATE TRIGGER citations_au AFTER UPDATE OF context ON citations BEGIN
    INSERT INTO citation_content(citation_content, rowid, context)
      VALUES ('delete', old.id, old.context);
    INSERT INTO citation_content(rowid, context) VALUES (new.id, new.context);
  END;
  -- A citation to a URL archived later is linked when its target arrives.
  CREATE TRIGGER documents_link_citations AFTER INSERT ON documents
    WHEN new.canonical_url IS NOT NULL BEGIN
    UPDATE citations SET target_id = new.id
      WHERE target_url = new.canonical_url AND target_id IS NULL;
  END;

  CREATE TABLE queries (
    id INTEGER PRIMARY KEY,
    query TEXT NOT NULL,
    command TEXT NOT NULL,
    created_at TEXT NOT NULL,
    document_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids))
  );
  CREATE INDEX queries_created ON queries(created_at);

  CREATE TABLE index_state (
    path TEXT PRIMARY KEY,
    root TEXT NOT NULL,
    mtime INTEGER NOT NULL,
    size INTEGER NOT NULL,
    hash TEXT NOT NULL,
    document_id INTEGER REFERENCES documents(id) ON DELETE SET NULL
  );
  CREATE INDEX index_state_root ON index_state(root);

  -- MinHash signatures and their LSH bands, for implicit "similar" links.
  CREATE TABLE document_minhash (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    signature BLOB NOT NULL
  );
  CREATE TABLE minhash_bands (
    band INTEGER NOT NULL,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    PRIMARY KEY (band, document_id)
  ) WITHOUT ROWID;
  CREATE INDEX minhash_bands_document ON minhash_bands(document_id);

  -- Vocabulary of the archive, in a trigram index, for --fuzzy.
  CREATE VIRTUAL TABLE document_vocab USING fts5vocab(document_content, 'row');
  CREATE TABLE fuzzy_terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
  CREATE VIRTUAL TABLE fuzzy_trigram USING fts5(
    term, content = 'fuzzy_terms', content_rowid = 'id', tokenize = 'trigram'
  );
  CREATE TRIGGER fuzzy_terms_ai AFTER INSERT ON fuzzy_terms BEGIN
    INSERT INTO fuzzy_trigram(rowid, term) VALUES (new.id, new.term);
  END;

  CREATE TABLE archive_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  `
  -- What a read web page keeps beyond its text (Markdown, blocks, links, site),
  -- so a page that answers 304 later is rebuilt exactly as it was first read.
  -- Pages archived before this table existed have no row: a 304 for one of them
  -- is asked again without validators, which fills its row.
  CREATE TABLE document_pages (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    page TEXT NOT NULL CHECK (json_valid(page))
  );
  `,
];

/** Brings the archive up to the newest schema; a current archive is left as it is. */
export function migrate(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number } | undefined;
  let version = row?.user_version ?? 0;
  while (version < MIGRATIONS.length) {
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(MIGRATIONS[version]!);
      version += 1;
      // PRAGMA takes no parameters; version is an integer we computed.
      db.exec(`PRAGMA user_version = ${version}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
  return version;
}
