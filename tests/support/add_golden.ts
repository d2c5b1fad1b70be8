/**
 * Adds a golden extraction case: copies a page into
 * `fixtures/extract/<name>/source.<ext>` and writes `expected.json` from what
 * `extract()` returns today. Review and trim the expectations before
 * committing: they should assert what matters (title, metadata, snippets
 * that must be present or absent), not every byte.
 *
 * ```sh
 * deno run --allow-read --allow-write tests/support/add_golden.ts page.html my-case \
 *   --url https://example.com/post
 * ```
 * @module
 */
import { extract } from "../../src/pipeline/extract/mod.ts";
import type { Block, ExtractResult, Link } from "../../src/pipeline/types.ts";

/** What a golden case asserts; every field is optional. */
export interface GoldenCase {
  /** Page URL the source is extracted as. */
  url: string;
  /** Media type; by default from the source's extension. */
  contentType?: string;
  status?: ExtractResult["status"];
  extractor?: ExtractResult["extractor"];
  reason?: string;
  title?: string;
  byline?: string | null;
  lang?: string | null;
  published?: string | null;
  site?: string | null;
  excerpt?: string | null;
  canonical?: string;
  /** Snippets the text must contain (whitespace-collapsed). */
  contains?: string[];
  /** Snippets the text must not contain. */
  absent?: string[];
  /** Snippets the Markdown must contain. */
  markdownContains?: string[];
  /** Exact number of links. */
  linkCount?: number;
  /** Links that must be present. */
  links?: Link[];
  /** The first blocks; each text is a prefix of the block's text. */
  blocksHead?: Block[];
}

/** Media type of a case's source file, from its extension. */
export const SOURCE_TYPES: Readonly<Record<string, string>> = {
  html: "text/html",
  txt: "text/plain",
  md: "text/markdown",
};

const SNIPPET_CHARS = 60;
const HEAD_BLOCKS = 4;

/** Expectations that describe `result` as it is now. */
export function goldenFrom(result: ExtractResult, url: string, contentType: string): GoldenCase {
  const a = result.article;
  const paragraphs = a.blocks.filter((b) => b.type === "p").slice(0, 2);
  const golden: GoldenCase = {
    url,
    contentType,
    status: result.status,
    extractor: result.extractor,
    title: a.title,
    byline: a.byline,
    lang: a.lang,
    published: a.published,
    site: a.site,
    contains: paragraphs.map((b) => b.text.slice(0, SNIPPET_CHARS)),
    absent: [],
    linkCount: a.links.length,
    links: a.links.slice(0, 3),
    blocksHead: a.blocks.slice(0, HEAD_BLOCKS).map((b) => ({
      ...b,
      text: b.text.slice(0, SNIPPET_CHARS),
    })),
  };
  if (result.reason) golden.reason = result.reason;
  if (a.canonical) golden.canonical = a.canonical;
  return golden;
}

async function main(args: string[]): Promise<void> {
  const urlAt = args.indexOf("--url");
  const url = urlAt >= 0 ? args[urlAt + 1] : undefined;
  const [source, name] = args.filter((_, i) => i !== urlAt && i !== urlAt + 1);
  if (!source || !name || !/^[\w-]+$/.test(name)) {
    console.error("usage: add_golden.ts <page.html|.txt|.md> <case-name> [--url URL]");
    Deno.exit(2);
  }
  const ext = source.split(".").pop()?.toLowerCase() ?? "html";
  const contentType = SOURCE_TYPES[ext] ?? "text/html";
  const dir = new URL(`../../fixtures/extract/${name}/`, import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  const body = await Deno.readTextFile(source);
  const target = new URL(`source.${SOURCE_TYPES[ext] ? ext : "html"}`, dir);
  await Deno.writeTextFile(target, body);
  const pageUrl = url ?? `https://example.com/${name}`;
  const golden = goldenFrom(extract(body, pageUrl, { contentType }), pageUrl, contentType);
  await Deno.writeTextFile(new URL("expected.json", dir), JSON.stringify(golden, null, 2) + "\n");
  console.log(`wrote ${dir.pathname}: review expected.json before committing`);
}

if (import.meta.main) await main(Deno.args);
