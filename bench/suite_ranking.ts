/**
 * Ranking quality and speed on BEIR SciFact: Quarry's tokenizer + BM25 as a
 * plain retriever over title + text, nDCG@10 over the 300 test queries
 * (conventions of shared/corpora/README.md). Baseline in the same run: SQLite
 * FTS5 (porter unicode61, title weight 2, OR of the query's words), the
 * archive's engine. Published: Elasticsearch 0.690, Pyserini 0.688.
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import {
  type Bm25Config,
  buildBm25Index,
  DEFAULT_BM25_CONFIG,
  searchBm25,
} from "../src/pipeline/rank/bm25.ts";
import { createTokenizer } from "../src/text/tokenize.ts";
import type { BenchContext, BenchRow, BenchSection } from "./types.ts";

interface Doc {
  _id: string;
  title: string;
  text: string;
}

const K = 10;
const TARGET = 0.69;
/** Other settings measured in the same run, to show what the defaults buy. */
const COMPARE: readonly { name: string; bm25: Bm25Config; titleWeight: number }[] = [
  { name: "k1 1.5, b 0.75 (Lucene/ES)", bm25: { k1: 1.5, b: 0.75 }, titleWeight: 1 },
  { name: "k1 0.9, b 0.4 (Pyserini flat)", bm25: { k1: 0.9, b: 0.4 }, titleWeight: 1 },
  { name: "defaults, title weight 2", bm25: DEFAULT_BM25_CONFIG, titleWeight: 2 },
];
const WORD = /[\p{L}\p{N}]+/gu;

function readJsonl<T>(text: string): T[] {
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

/** qrels/test.tsv (header line, CRLF): query id → doc id → grade. */
function readQrels(text: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of text.split(/\r?\n/).slice(1)) {
    const [q, d, g] = line.split("\t");
    if (!q || !d || g === undefined) continue;
    if (!out.has(q)) out.set(q, new Map());
    out.get(q)!.set(d, Number(g));
  }
  return out;
}

/** nDCG@K with graded (linear) gains and a log2 discount; no hits scores 0. */
function ndcg(ranked: readonly string[], rel: ReadonlyMap<string, number>): number {
  let dcg = 0;
  ranked.slice(0, K).forEach((d, i) => dcg += (rel.get(d) ?? 0) / Math.log2(i + 2));
  const ideal = [...rel.values()].sort((a, b) => b - a).slice(0, K);
  const idcg = ideal.reduce((n, g, i) => n + g / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Ties by doc id descending, as the corpora README asks. */
function byIdDesc(ids: readonly string[]) {
  return (a: number, b: number) => (ids[a]! < ids[b]! ? 1 : ids[a]! > ids[b]! ? -1 : 0);
}

function quarryRun(
  titles: readonly string[][],
  texts: readonly string[][],
  ids: readonly string[],
  queries: readonly { id: string; tokens: string[] }[],
  bm25: Bm25Config,
  titleWeight: number,
): { rankings: Map<string, string[]>; buildMs: number; searchMs: number } {
  const t0 = performance.now();
  const docs = texts.map((t, i) => {
    const title = titles[i]!;
    const out: string[] = [];
    for (let r = 0; r < titleWeight; r++) out.push(...title);
    out.push(...t);
    return out;
  });
  const index = buildBm25Index(docs, bm25);
  const t1 = performance.now();
  const tie = byIdDesc(ids);
  const rankings = new Map<string, string[]>();
  for (const q of queries) {
    const hits = searchBm25(index, q.tokens, { limit: K + 1, tieBreak: tie });
    rankings.set(q.id, hits.map((h) => ids[h.doc]!).filter((d) => d !== q.id).slice(0, K));
  }
  return { rankings, buildMs: t1 - t0, searchMs: performance.now() - t1 };
}

function fts5Run(docs: readonly Doc[], queries: readonly { id: string; text: string }[]) {
  const db = new DatabaseSync(":memory:");
  const t0 = performance.now();
  db.exec(
    "CREATE VIRTUAL TABLE d USING fts5(docid UNINDEXED, title, body, " +
      "tokenize='porter unicode61 remove_diacritics 1')",
  );
  const insert = db.prepare("INSERT INTO d (docid, title, body) VALUES (?, ?, ?)");
  db.exec("BEGIN");
  for (const d of docs) insert.run(d._id, d.title, d.text);
  db.exec("COMMIT");
  const t1 = performance.now();
  const select = db.prepare(
    "SELECT docid FROM d WHERE d MATCH ? ORDER BY bm25(d, 0, 2.0, 1.0), docid DESC LIMIT ?",
  );
  const rankings = new Map<string, string[]>();
  for (const q of queries) {
    const words = [...new Set(q.text.match(WORD) ?? [])];
    const rows = words.length === 0
      ? []
      : select.all(words.map((w) => `"${w}"`).join(" OR "), K + 1) as { docid: string }[];
    rankings.set(q.id, rows.map((r) => r.docid).filter((d) => d !== q.id).slice(0, K));
  }
  const searchMs = performance.now() - t1;
  db.close();
  return { rankings, buildMs: t1 - t0, searchMs };
}

function meanNdcg(
  rankings: ReadonlyMap<string, string[]>,
  qrels: ReadonlyMap<string, ReadonlyMap<string, number>>,
): number {
  let sum = 0;
  for (const [q, rel] of qrels) sum += ndcg(rankings.get(q) ?? [], rel);
  return sum / qrels.size;
}

export async function run(ctx: BenchContext): Promise<BenchSection> {
  const title = "Ranking: tokenize + BM25 on SciFact (nDCG@10, 300 test queries)";
  if (!ctx.corpora) return { title, rows: [], skipped: "shared corpora absent" };
  const dir = `${ctx.corpora}/ir/scifact`;
  const docs = readJsonl<Doc>(await Deno.readTextFile(`${dir}/corpus.jsonl`));
  const allQueries = readJsonl<{ _id: string; text: string }>(
    await Deno.readTextFile(`${dir}/queries.jsonl`),
  );
  const qrels = readQrels(await Deno.readTextFile(`${dir}/qrels/test.tsv`));
  const queries = allQueries.filter((q) => qrels.has(q._id)).map((q) => ({
    id: q._id,
    text: q.text,
  }));

  const tok = createTokenizer();
  const t0 = performance.now();
  const titles = docs.map((d) => tok(d.title));
  const texts = docs.map((d) => tok(d.text));
  const tokenizeMs = performance.now() - t0;
  const ids = docs.map((d) => d._id);
  const tq = performance.now();
  const qTokens = queries.map((q) => ({ id: q.id, tokens: tok(q.text) }));
  const queryTokenizeMs = performance.now() - tq;

  const main = quarryRun(titles, texts, ids, qTokens, DEFAULT_BM25_CONFIG, 1);
  const score = meanNdcg(main.rankings, qrels);
  const qps = queries.length / ((main.searchMs + queryTokenizeMs) / 1000);
  const fts = fts5Run(docs, queries);
  const ftsScore = meanNdcg(fts.rankings, qrels);
  const ftsQps = queries.length / (fts.searchMs / 1000);

  const rows: BenchRow[] = [
    {
      metric: `nDCG@10 (k1 ${DEFAULT_BM25_CONFIG.k1}, b ${DEFAULT_BM25_CONFIG.b})`,
      value: score.toFixed(4),
      baseline: `FTS5 ${ftsScore.toFixed(4)}`,
      note: `${score >= TARGET ? "meets" : "below"} target ${TARGET} (Elasticsearch 0.690)`,
    },
    {
      metric: "queries/s (tokenize + search, one core)",
      value: qps.toFixed(0),
      baseline: `FTS5 ${ftsQps.toFixed(0)}`,
      note: `${(qps / ftsQps).toFixed(1)}× FTS5`,
    },
    {
      metric: "index time (tokenize 5,183 docs + build)",
      value: `${(tokenizeMs + main.buildMs).toFixed(0)} ms`,
      baseline: `FTS5 ${fts.buildMs.toFixed(0)} ms`,
      note: `tokenize ${tokenizeMs.toFixed(0)} ms, build ${main.buildMs.toFixed(0)} ms`,
    },
  ];
  if (!ctx.quick) {
    for (const c of COMPARE) {
      const r = quarryRun(titles, texts, ids, qTokens, c.bm25, c.titleWeight);
      rows.push({ metric: `nDCG@10 ${c.name}`, value: meanNdcg(r.rankings, qrels).toFixed(4) });
    }
  }
  return { title, rows };
}
