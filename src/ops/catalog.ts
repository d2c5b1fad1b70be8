/**
 * The operations as the CLI lists them before any of them is loaded: each
 * entry holds the words and one-line summary `--help` shows, and `load()`
 * imports the op's module only when its command runs. An op module pulls in
 * its whole pipeline (tokenizer, DOM, Readability, SQLite…); importing all
 * of them at start-up cost ~0.7 s per call of the CLI.
 *
 * The op files stay the one definition: `tests/ops/catalog_test.ts` fails
 * when an entry differs from the op it loads or an op of the registry has
 * no entry here.
 * @module
 */
import type { Operation } from "./types.ts";

/** An operation known by its command and summary, loaded on demand. */
export interface CatalogEntry {
  command: string[];
  summary: string;
  load(): Promise<Operation>;
}

const op = (p: Promise<unknown>) => p as Promise<Operation>;

/** Every operation, in the order `--help` lists them (the registry's order). */
export const CATALOG: readonly CatalogEntry[] = [
  {
    command: ["search"],
    summary: "Search the web and return the excerpts of the best pages that answer the question",
    load: () => op(import("./search.ts").then((m) => m.searchOp)),
  },
  {
    command: ["links"],
    summary: "Search the web and list the results, without reading the pages",
    load: () => op(import("./links.ts").then((m) => m.linksOp)),
  },
  {
    command: ["fetch"],
    summary: "Read pages and return their main content, metadata and links",
    load: () => op(import("./fetch.ts").then((m) => m.fetchOp)),
  },
  {
    command: ["docs"],
    summary: "Library documentation from Context7, within a token budget",
    load: () => op(import("./docs.ts").then((m) => m.docsOp)),
  },
  {
    command: ["deep"],
    summary: "Deep multi-source research by Perplexity, with citations",
    load: () => op(import("./deep.ts").then((m) => m.deepOp)),
  },
  {
    command: ["cache", "clear"],
    summary: "Clear cached answers: those of one query, of one operation, or all",
    load: () => op(import("./cache.ts").then((m) => m.cacheClearOp)),
  },
  {
    command: ["cache", "stats"],
    summary: "How many answers are cached, and their size, per operation",
    load: () => op(import("./cache.ts").then((m) => m.cacheStatsOp)),
  },
  {
    command: ["archive", "search"],
    summary: "Search everything Quarry has read and indexed, offline",
    load: () => op(import("./archive_search.ts").then((m) => m.archiveSearchOp)),
  },
  {
    command: ["archive", "related"],
    summary: "Documents cited by, citing, or similar to an archived document",
    load: () => op(import("./archive_related.ts").then((m) => m.archiveRelatedOp)),
  },
  {
    command: ["archive", "show"],
    summary: "Show one archived document and its text",
    load: () => op(import("./archive_show.ts").then((m) => m.archiveShowOp)),
  },
  {
    command: ["archive", "stats"],
    summary: "Count archived documents, citations, queries and indexed files",
    load: () => op(import("./archive_stats.ts").then((m) => m.archiveStatsOp)),
  },
  {
    command: ["archive", "export"],
    summary: "Export the citation graph as JSON, GraphML or DOT",
    load: () => op(import("./archive_export.ts").then((m) => m.archiveExportOp)),
  },
  {
    command: ["archive", "index"],
    summary: "Index folders of Markdown, text, HTML and JSON files into the archive",
    load: () => op(import("./archive_index.ts").then((m) => m.archiveIndexOp)),
  },
  {
    command: ["doctor"],
    summary: "Check engines, keys, cool-downs and the data directory",
    load: () => op(import("./doctor.ts").then((m) => m.doctorOp)),
  },
];
