/**
 * Reads one indexed file into documents: Markdown (front matter and first
 * heading give the title), plain text, HTML (through the extractor) and JSON
 * saved pages (`url`/`title`/`content`, or arrays of them). Pure: text in,
 * documents out.
 * @module
 */
import type { Article } from "../../pipeline/types.ts";
import type { DocumentInput, DocumentSource } from "./types.ts";
import { extractCitations, extractFileLinks } from "../graph/citations.ts";
import type { CitationKind } from "../graph/walk.ts";

/** File extensions indexed, by the kind of content they hold. */
export const FILE_KINDS: Readonly<Record<string, FileKind>> = {
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  txt: "text",
  text: "text",
  html: "html",
  htm: "html",
  xhtml: "html",
  json: "json",
};

/** Kind of content of an indexed file. */
export type FileKind = "markdown" | "text" | "html" | "json";

/** A document read from a file, with the URLs it cites. */
export interface FileDocument {
  doc: DocumentInput;
  citations: { url: string; context: string; kind: CitationKind }[];
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const FRONT_TITLE = /^title:\s*["']?(.*?)["']?\s*$/m;
const FRONT_DATE = /^date:\s*["']?(.*?)["']?\s*$/m;
const H1 = /^[ \t]*#[ \t]+(.+?)[ \t]*#*[ \t]*$/m;
const EXTENSION = /\.([^./\\]+)$/;
const HTML_LIKE = /^\s*</;
/** Markdown images, and links whose target would otherwise be indexed as words. */
const MD_IMAGE = /!\[[^\]]*\]\([^)]*\)/g;
const MD_LINK = /\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)/g;

/** Keys a JSON saved page may use for each field, in order of preference. */
const JSON_KEYS = {
  url: ["url", "link", "href", "final_url", "finalUrl"],
  title: ["title", "name", "headline"],
  content: ["content", "text", "markdown", "body", "html", "snippet"],
  published: ["published", "publishedAt", "published_at", "date"],
  query: ["query"],
} as const;
/** Keys under which a JSON file may hold its list of pages. */
const JSON_LISTS = ["results", "pages", "documents", "items", "data"];

/** The kind of a file by its extension, or undefined when it is not indexed. */
export function fileKind(path: string): FileKind | undefined {
  const ext = EXTENSION.exec(path)?.[1]?.toLowerCase();
  return ext === undefined ? undefined : FILE_KINDS[ext];
}

function baseName(path: string): string {
  return (path.split(/[\\/]/).pop() ?? path).replace(EXTENSION, "");
}

/** Title, date and body of a Markdown file; the title heading leaves the body. */
export function readMarkdown(text: string, fallbackTitle: string) {
  let body = text;
  let title: string | undefined;
  let date: string | undefined;
  const front = FRONT_MATTER.exec(body);
  if (front) {
    title = FRONT_TITLE.exec(front[1]!)?.[1]?.trim() || undefined;
    date = FRONT_DATE.exec(front[1]!)?.[1]?.trim() || undefined;
    body = body.slice(front[0].length);
  }
  if (title === undefined) {
    const h1 = H1.exec(body);
    if (h1) {
      title = h1[1]!.trim();
      body = body.slice(0, h1.index) + body.slice(h1.index + h1[0].length);
    }
  }
  return { title: title ?? fallbackTitle, date, body: body.trim() };
}

function pick(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value;
  }
  return undefined;
}

function jsonPages(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) {
    return value.filter((v): v is Record<string, unknown> => !!v && typeof v === "object");
  }
  if (!value || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  for (const key of JSON_LISTS) if (Array.isArray(record[key])) return jsonPages(record[key]);
  return [record];
}

function citationsOf(markdown: string, base: string | undefined, kind: CitationKind) {
  return extractCitations(markdown, base).map((c) => ({ ...c, kind }));
}

/** Reads the main content of an HTML page (the pipeline's extractor, passed in). */
export type ExtractHtml = (html: string, url: string) => Article;

/** Options of {@linkcode readFileDocuments}. */
export interface ReadFileOptions {
  source: DocumentSource;
  /** ISO time the file was indexed. */
  indexedAt: string;
  extractHtml: ExtractHtml;
}

/**
 * Reads a file's text into documents. A JSON list gives one document per
 * page, with paths `file#0`, `file#1`…; a file with no text gives none.
 */
export function readFileDocuments(
  path: string,
  text: string,
  options: ReadFileOptions,
): FileDocument[] {
  const kind = fileKind(path);
  const base = { fetchedAt: options.indexedAt, source: options.source, path };
  const name = baseName(path);
  if (kind === "markdown" || kind === "text") {
    const md = kind === "markdown" ? readMarkdown(text, name) : { title: name, body: text.trim() };
    if (!md.body && !md.title) return [];
    // Citations are read from the Markdown; the index gets its text without link targets.
    const content = kind === "markdown"
      ? md.body.replace(MD_IMAGE, "").replace(MD_LINK, "$1")
      : md.body;
    const doc: DocumentInput = { ...base, title: md.title, content, type: kind };
    if ("date" in md && md.date) doc.publishedAt = md.date;
    const links = kind === "markdown"
      ? extractFileLinks(md.body, path).map((c) => ({ ...c, kind: "citation" as const }))
      : [];
    return [{ doc, citations: [...citationsOf(md.body, undefined, "citation"), ...links] }];
  }
  if (kind === "html") {
    const doc = { ...base, title: name, content: "" };
    return [htmlDocument(options.extractHtml(text, `file://${path}`), `file://${path}`, doc)];
  }
  if (kind !== "json") return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const pages = jsonPages(value);
  return pages.flatMap((page, i): FileDocument[] => {
    const url = pick(page, JSON_KEYS.url);
    const content = pick(page, JSON_KEYS.content) ?? "";
    const title = pick(page, JSON_KEYS.title) ?? url ?? name;
    const published = pick(page, JSON_KEYS.published);
    const query = pick(page, JSON_KEYS.query);
    const doc: DocumentInput = {
      ...base,
      path: pages.length === 1 ? path : `${path}#${i}`,
      url: url ?? null,
      title,
      content,
      type: "json",
      ...(published ? { publishedAt: published } : {}),
      ...(query ? { query } : {}),
    };
    if (!content.trim()) return [];
    if (HTML_LIKE.test(content)) {
      const at = url ?? `file://${path}`;
      return [htmlDocument(options.extractHtml(content, at), at, doc)];
    }
    return [{ doc, citations: citationsOf(content, url, "link") }];
  });
}

function htmlDocument(article: Article, url: string, base: DocumentInput): FileDocument {
  const doc: DocumentInput = {
    ...base,
    title: article.title || base.title,
    content: article.text,
    byline: article.byline,
    lang: article.lang,
    publishedAt: base.publishedAt ?? article.published,
    type: base.type === "json" ? "json" : "html",
    ...(article.site ? { metadata: { site_name: article.site } } : {}),
  };
  return { doc, citations: citationsOf(article.markdown, url, "link") };
}
