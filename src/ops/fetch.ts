/**
 * `quarry fetch <url…>`: read pages and return their main content, metadata
 * and links (with `--query`, the excerpts that answer it).
 * @module
 */
import { z } from "zod";
import { QuarryError } from "../errors.ts";
import { checkUrl } from "../pipeline/guard.ts";
import { type PageRead, readPages } from "../pipeline/read.ts";
import type { Link, PageStatus } from "../pipeline/types.ts";
import { parseDuration } from "../config.ts";
import { type Envelope, failure } from "../envelope.ts";
import { renderPages } from "../render/markdown.ts";
import { defineOp } from "./types.ts";
import {
  budgetField,
  formatField,
  maxField,
  maxTokensField,
  renderField,
  requireBrowser,
  startField,
  timeoutField,
} from "./schemas.ts";
import { excerptsFor } from "../pipeline/rank/excerpts_for.ts";
import type { Excerpt } from "../pipeline/rank/excerpts.ts";
import { countTokens } from "../text/tokens.ts";
import { fetchOptions, readDeps } from "./read_pages.ts";

/** Most URLs one call may read. */
export const MAX_URLS = 20;

const input = z.object({
  urls: z.array(z.string().min(1)).min(1).max(MAX_URLS).describe(
    "URLs of the pages to read (http or https)",
  ),
  format: formatField,
  start: startField,
  max: maxField,
  timeout: timeoutField,
  query: z.string().trim().min(1).max(2000).optional().describe(
    "A question: return only the excerpts of each page that answer it, instead of the content",
  ),
  budget: budgetField,
  maxTokens: maxTokensField,
  render: renderField,
});

/** One page of a `fetch` answer. */
export interface FetchedPage {
  url: string;
  final_url: string;
  status: PageStatus;
  reason?: string;
  title?: string;
  byline?: string | null;
  site?: string | null;
  lang?: string | null;
  published?: string | null;
  content?: string;
  links?: Link[];
  chars?: number;
  total_chars?: number;
  next_start?: number | null;
  excerpts?: Excerpt[];
  tokens?: number;
  archive_id?: string;
  /** Unchanged since it was archived (HTTP 304): the archived text was used. */
  revalidated?: boolean;
  /** Read from the DOM a browser rendered. */
  rendered?: boolean;
}

/** Cuts content to the requested window and says where the next one starts. */
export function pageWindow(
  full: string,
  start: number,
  max: number | undefined,
): { content: string; total: number; next: number | null } {
  const end = max === undefined ? full.length : Math.min(full.length, start + max);
  const content = full.slice(start, end);
  return { content, total: full.length, next: end < full.length ? end : null };
}

/** How a page is shown: its content window, or only excerpts answering a query. */
export interface PageView {
  format: "md" | "text";
  start: number;
  max?: number | undefined;
  query?: string | undefined;
  budget?: number;
  maxTokens?: number | undefined;
}

/** Turns one read page into its place in the envelope. */
export function toFetchedPage(page: PageRead, options: PageView): FetchedPage {
  const base: FetchedPage = {
    url: page.fetch.url,
    final_url: page.fetch.finalUrl,
    status: page.status,
    ...(page.reason === undefined ? {} : { reason: page.reason }),
    ...(page.archiveId === undefined ? {} : { archive_id: page.archiveId }),
    ...(page.revalidated ? { revalidated: true } : {}),
    ...(page.rendered ? { rendered: true } : {}),
  };
  const article = page.extracted?.article;
  if (!article) return base;
  const meta = {
    ...base,
    title: article.title,
    byline: article.byline,
    site: article.site,
    lang: article.lang,
    published: article.published,
  };
  if (options.query !== undefined) {
    const excerpts = excerptsFor(article, options.query, {
      chars: options.budget ?? 3000,
      ...(options.maxTokens === undefined ? {} : { tokens: options.maxTokens }),
    }, "strict");
    const tokens = excerpts.reduce((n, e) => n + countTokens(e.text), 0);
    return { ...meta, excerpts, tokens, links: article.links };
  }
  const full = options.format === "md" ? article.markdown : article.text;
  const window = pageWindow(full, options.start, options.max);
  return {
    ...meta,
    content: window.content,
    links: article.links,
    chars: window.content.length,
    total_chars: window.total,
    next_start: window.next,
  };
}

const STATUS_CODES: Partial<Record<PageStatus, QuarryError["code"]>> = {
  timeout: "TIMEOUT",
  captcha: "CAPTCHA",
  blocked: "UPSTREAM_ERROR",
  private_address: "PERMISSION_DENIED",
  http_error: "UPSTREAM_ERROR",
};

/** The error of a batch in which no page could be read. */
export function batchError(pages: FetchedPage[]): QuarryError {
  const first = pages[0];
  const code = first?.status === "http_error" && first.reason?.startsWith("HTTP 404")
    ? "NOT_FOUND"
    : STATUS_CODES[first?.status ?? "http_error"] ?? "UPSTREAM_ERROR";
  const what = pages.map((p) => `${p.url}: ${p.status}${p.reason ? ` (${p.reason})` : ""}`);
  return new QuarryError(
    code,
    pages.length === 1
      ? `Could not read ${what[0]}`
      : `Could not read any page: ${what.join("; ")}`,
    { suggestions: ["Check the URL in a browser", "Raise --timeout for slow sites"] },
  );
}

/** The `fetch` operation. */
export const fetchOp = defineOp({
  name: "fetch",
  command: ["fetch"],
  summary: "Read pages and return their main content, metadata and links",
  description:
    "Fetch one or more web pages (at once, each with a timeout) and return their readable main " +
    "content as Markdown or text, with title, byline, site, language, publication date and " +
    "links. Use it when you already know the URL. Long pages can be paged with start/max. " +
    "With a query, only the excerpts that answer it are returned, within a character or " +
    "token budget. Pages that fail come back with a status (timeout, http_error, not_html, too_large, " +
    "empty, private_address…) and a reason. Pages built by JavaScript are rendered in a headless " +
    "browser when one is configured (render: auto, always or never); such pages carry rendered: true.",
  input,
  positionals: [{ field: "urls", variadic: true }],
  http: { method: "GET", path: "/fetch" },
  mcp: {
    tool: "fetch_page",
    title: "Read web pages",
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  },
  async run(ctx, args): Promise<Envelope<FetchedPage>> {
    const started = ctx.now();
    const urls = args.urls.map((raw) => checkUrl(raw).href);
    requireBrowser(ctx, args.render);
    const timeoutMs = args.timeout
      ? parseDuration(args.timeout, "--timeout")
      : ctx.config.timeoutMs;
    const pages = await readPages(
      urls,
      { fetch: fetchOptions(ctx, { timeoutMs }), query: args.query, render: args.render },
      readDeps(ctx),
    );
    const results = pages.map((p) => toFetchedPage(p, args));
    const metadata = {
      returned: results.filter((r) => r.status === "ok").length,
      failed: results.filter((r) => r.status !== "ok").length,
      elapsed_ms: ctx.now() - started,
    };
    if (metadata.returned === 0) {
      return failure("fetch", batchError(results), { results, metadata });
    }
    return { success: true, command: "fetch", results, metadata };
  },
  render(envelope) {
    return renderPages((envelope.results ?? []) as FetchedPage[]);
  },
});
