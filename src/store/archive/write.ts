/**
 * Writing documents: match an incoming document to its row (canonical URL
 * for web pages, path for files, content hash for the rest), skip it when
 * nothing changed, and keep the full-text index and the `similar` links in
 * step with the row.
 * @module
 */
import { createHash } from "node:crypto";
import { canonicalUrl } from "../../text/url.ts";
import { markVocabularyStale } from "./fuzzy.ts";
import { EVERY_TOKEN } from "./query.ts";
import type { Sql } from "./sql.ts";
import type { ArchivedDocument, DocumentInput, DocumentSource, UpsertOutcome } from "./types.ts";
import {
  bandKeys,
  MAX_SIMILAR_CONFIDENCE,
  minhashSignature,
  signatureFromBytes,
  signatureSimilarity,
  signatureToBytes,
  type SimilarityConfig,
} from "../graph/similar.ts";

/** Most `similar` links one document gets (the closest ones). */
const MAX_SIMILAR_LINKS = 20;
const QUERY_SEPARATOR = "\n";

/** A `documents` row joined with its full-text columns. */
export interface DocumentRow {
  id: number;
  url: string | null;
  canonical_url: string | null;
  title: string;
  byline: string | null;
  site: string | null;
  lang: string | null;
  published_at: string | null;
  fetched_at: string;
  source: DocumentSource;
  type: string;
  path: string | null;
  content_hash: string;
  metadata: string;
  content: string;
  query: string | null;
}

/** The API shape of a row. */
export function rowToDocument(row: DocumentRow): ArchivedDocument {
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(row.metadata);
  } catch {
    // The CHECK constraint keeps metadata valid JSON; an old row may not be an object.
  }
  return {
    id: String(row.id),
    url: row.url,
    canonicalUrl: row.canonical_url,
    title: row.title,
    byline: row.byline,
    site: row.site,
    lang: row.lang,
    publishedAt: row.published_at,
    fetchedAt: row.fetched_at,
    source: row.source,
    type: row.type,
    path: row.path,
    contentHash: row.content_hash,
    metadata,
    content: row.content,
    query: row.query ?? "",
  };
}

/** SHA-256 of what makes a document's text: its title and content. */
export function contentHash(title: string, content: string): string {
  return createHash("sha256").update(title).update("\u0000").update(content).digest("hex");
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

/** An ISO date when the text is a date, else null (the raw text stays in metadata). */
function isoDate(text: string | null | undefined): string | null {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function mergeQueries(old: string, added: string | null | undefined): string {
  const query = added?.trim();
  if (!query) return old;
  const seen = old ? old.split(QUERY_SEPARATOR) : [];
  return seen.includes(query) ? old : [...seen, query].join(QUERY_SEPARATOR);
}

interface Existing {
  id: number;
  content_hash: string;
  query: string | null;
}

function findExisting(sql: Sql, doc: DocumentInput, canonical: string | null, hash: string) {
  const select = "SELECT d.id, d.content_hash, c.query FROM documents d " +
    "JOIN document_content c ON c.rowid = d.id WHERE ";
  if (doc.path) return sql.get<Existing>(`${select}d.path = ?`, doc.path);
  if (canonical) {
    return sql.get<Existing>(`${select}d.canonical_url = ? AND d.path IS NULL`, canonical);
  }
  return sql.get<Existing>(
    `${select}d.content_hash = ? AND d.source = ? AND d.path IS NULL AND d.canonical_url IS NULL`,
    hash,
    doc.source,
  );
}

/** Writes a batch of documents; the caller holds the transaction. */
export function writeDocuments(
  sql: Sql,
  docs: DocumentInput[],
  similarity: SimilarityConfig,
): UpsertOutcome[] {
  const outcomes: UpsertOutcome[] = [];
  for (const doc of docs) {
    const url = doc.url?.trim() || null;
    const canonical = url ? canonicalUrl(url) : null;
    const hash = contentHash(doc.title, doc.content);
    const existing = findExisting(sql, doc, canonical, hash);
    const query = mergeQueries(existing?.query ?? "", doc.query);
    if (existing && existing.content_hash === hash && query === (existing.query ?? "")) {
      outcomes.push({ id: String(existing.id), status: "unchanged" });
      continue;
    }
    const metadata = { ...doc.metadata };
    if (doc.publishedAt && !isoDate(doc.publishedAt)) metadata.published_raw = doc.publishedAt;
    const values = [
      url,
      canonical,
      doc.title,
      doc.byline ?? null,
      doc.site ?? hostOf(url),
      doc.lang ?? null,
      isoDate(doc.publishedAt),
      doc.fetchedAt,
      doc.source,
      doc.type ?? "html",
      doc.path ?? null,
      hash,
      JSON.stringify(metadata),
    ];
    let id: number;
    if (existing) {
      id = existing.id;
      sql.run(
        `UPDATE documents SET url = ?, canonical_url = ?, title = ?, byline = ?, site = ?,
           lang = ?, published_at = ?, fetched_at = ?, source = ?, type = ?, path = ?,
           content_hash = ?, metadata = ? WHERE id = ?`,
        ...values,
        id,
      );
      sql.run("DELETE FROM document_content WHERE rowid = ?", id);
    } else {
      id = sql.run(
        `INSERT INTO documents(url, canonical_url, title, byline, site, lang, published_at,
           fetched_at, source, type, path, content_hash, metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ...values,
      ).lastInsertRowid;
    }
    sql.run(
      "INSERT INTO document_content(rowid, title, content, query, every) VALUES (?, ?, ?, ?, ?)",
      id,
      doc.title,
      doc.content,
      query,
      EVERY_TOKEN,
    );
    if (!existing || existing.content_hash !== hash) {
      linkSimilar(sql, id, doc.content, similarity, existing !== undefined);
    }
    outcomes.push({ id: String(id), status: existing ? "updated" : "added" });
  }
  if (outcomes.some((o) => o.status !== "unchanged")) markVocabularyStale(sql);
  return outcomes;
}

/** Replaces a document's MinHash bands and its `similar` links to other documents. */
function linkSimilar(
  sql: Sql,
  id: number,
  content: string,
  config: SimilarityConfig,
  existed: boolean,
): void {
  if (existed) {
    // A new row has no bands or links yet: these deletes only matter on update.
    sql.run("DELETE FROM minhash_bands WHERE document_id = ?", id);
    sql.run("DELETE FROM citations WHERE kind = 'similar' AND source_id = ?", id);
    sql.run("DELETE FROM citations WHERE kind = 'similar' AND target_id = ?", id);
  }
  const signature = minhashSignature(content, config);
  if (!signature) {
    sql.run("DELETE FROM document_minhash WHERE document_id = ?", id);
    return;
  }
  sql.run(
    "INSERT OR REPLACE INTO document_minhash(document_id, signature) VALUES (?, ?)",
    id,
    signatureToBytes(signature),
  );
  const keys = JSON.stringify(bandKeys(signature, config));
  const candidates = sql.all<{ document_id: number; signature: Uint8Array }>(
    `SELECT m.document_id, m.signature FROM document_minhash m WHERE m.document_id IN (
       SELECT document_id FROM minhash_bands WHERE band IN (SELECT value FROM json_each(?)))`,
    keys,
  );
  const close = candidates
    .map((c) => ({
      id: c.document_id,
      similarity: signatureSimilarity(signature, signatureFromBytes(c.signature)),
    }))
    .filter((c) => c.id !== id && c.similarity >= config.threshold)
    .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
    .slice(0, MAX_SIMILAR_LINKS);
  for (const c of close) {
    sql.run(
      `INSERT OR IGNORE INTO citations(source_id, target_url, target_id, context, confidence, kind)
         SELECT ?, canonical_url, ?, ?, ?, 'similar' FROM documents WHERE id = ?`,
      id,
      c.id,
      `${Math.round(c.similarity * 100)}% of the text is shared`,
      Math.min(MAX_SIMILAR_CONFIDENCE, c.similarity),
      c.id,
    );
  }
  sql.run(
    "INSERT OR IGNORE INTO minhash_bands(band, document_id) SELECT value, ? FROM json_each(?)",
    id,
    keys,
  );
}
