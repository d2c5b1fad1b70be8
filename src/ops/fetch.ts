/**
 * `quarry fetch <url…>`: read pages and return their main content, metadata
 * and links (with `--query`, the excerpts that answer it).
 * @module
 */
import { z } from "zod";
import { QuarryError } from "../errors.ts";
import { checkUrl } from "../pipeline/guard.ts";
import { batchDeadline, READABLE_TYPES } from "../pipeline/fetch.ts";
import { type PageRead, readPages } from "../pipeline/read.ts";
import type { PageMemory } from "../pipeline/memory.ts";
import type { Article, Link, PageStatus } from "../pipeline/types.ts";
import { type Envelope, failure } from "../envelope.ts";
import { renderPages } from "../render/markdown.ts";
import { defineOp } from "./types.ts";
import {
  aliasField,
  budgetField,
  deadlineField,
  maxField,
  maxTokensField,
  renderField,
  requireBrowser,
  robotsField,
  startField,
  timeoutField,
} from "./schemas.ts";
import { readUnderRobots } from "./robots.ts";
import { excerptsFor } from "../pipeline/rank/excerpts_for.ts";
import type { Excerpt } from "../pipeline/rank/excerpts.ts";
import { countTokens, loadTokenizer } from "../text/tokens.ts";
import { fetchOptions, readDeps } from "./read_pages.ts";

/** How `fetch` returns page content. */
export const FETCH_FORMATS = ["md", "text", "html", "raw"] as const;

/** Most URLs one call may read. */
export const MAX_URLS = 20;

const input = z.object({
  urls: z.array(z.string().min(1)).min(1).max(MAX_URLS).optional().describe(
    "URLs of the pages to read (http or https)",
  ),
  url: aliasField("urls", z.string().min(1).optional().describe("One URL to read (as urls)")),
  format: z.enum(FETCH_FORMATS).default("md").describe(
    "How page content is returned: Markdown (md), plain text, the cleaned article HTML (html), " +
      "or the body as received (raw, within the size cap)",
  ),
  start: startField,
  start_index: aliasField(
    "start",
    z.number().int().min(0).optional().describe("First character of the content (as start)"),
  ),
  max: maxField,
  max_length: aliasField(
    "max",
    z.number().int().positive().max(1_000_000).optional().describe(
      "Most characters of content for each page (as max)",
    ),
  ),
  timeout: timeoutField,
  deadline: deadlineField,
  query: z.string().trim().min(1).max(2000).optional().describe(
    "A question: return only the excerpts of each page that answer it, instead of the content",
  ),
  budget: budgetField,
  maxTokens: maxTokensField,
  render: renderField,
  robots: robotsField,
}).superRefine((args, ctx) => {
  const count = (args.urls?.length ?? 0) + (args.url === undefined ? 0 : 1);
  if (count === 0) {
    ctx.addIssue({ code: "custom", path: ["urls"], message: "Give the URL to read: urls or url" });
  } else if (count > MAX_URLS) {
    ctx.addIssue({ code: "custom", path: ["urls"], message: `At most ${MAX_URLS} URLs at once` });
  }
});

type FetchInput = z.infer<typeof input>;

/** The input with other tools' names folded into Quarry's (`url` into `urls`, …). */
export function fetchArgs(args: FetchInput) {
  return {
    ...args,
    urls: [...new Set([...(args.urls ?? []), ...(args.url === undefined ? [] : [args.url])])],
    start: args.start_index ?? args.start,
    max: args.max_length ?? args.max,
  };
}

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
  format: typeof FETCH_FORMATS[number];
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
  const body = page.fetch.body;
  if (options.format === "raw" && body !== undefined && options.query === undefined) {
    // The body as received, whatever extraction made of it: it arrived, so it is ok.
    const { reason: _extraction, ...received } = base;
    return {
      ...received,
      status: "ok",
      ...(article ? metaOf(article) : {}),
      ...windowOf(body, options),
    };
  }
  if (!article) return base;
  const meta = { ...base, ...metaOf(article) };
  if (options.query !== undefined) {
    const excerpts = excerptsFor(article, options.query, {
      chars: options.budget ?? 3000,
      ...(options.maxTokens === undefined ? {} : { tokens: options.maxTokens }),
    }, "strict");
    const tokens = excerpts.reduce((n, e) => n + countTokens(e.text), 0);
    return { ...meta, excerpts, tokens, links: article.links };
  }
  return {
    ...meta,
    ...windowOf(contentOf(article, options.format), options),
    links: article.links,
  };
}

function metaOf(article: Article) {
  return {
    title: article.title,
    byline: article.byline,
    site: article.site,
    lang: article.lang,
    published: article.published,
  };
}

/** The article in a format; a page that was not HTML shows its text as preformatted HTML. */
function contentOf(article: Article, format: PageView["format"]): string {
  if (format === "md") return article.markdown;
  if (format === "html") return article.html ?? `<pre>${escapeHtml(article.text)}</pre>`;
  return article.text;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function windowOf(full: string, options: PageView) {
  const window = pageWindow(full, options.start, options.max);
  return {
    content: window.content,
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
  robots_disallowed: "PERMISSION_DENIED",
  http_error: "UPSTREAM_ERROR",
};

/** What to try for each kind of failure; a hint only where it can help. */
const STATUS_HINTS: Partial<Record<PageStatus, string[]>> = {
  timeout: ["Raise --timeout for slow sites (and --deadline for many pages)"],
  private_address: [
    "Set QUARRY_ALLOW_PRIVATE_NETWORK=1 to let Quarry read loopback and private addresses",
  ],
  not_html: [`Quarry reads these types: ${[...READABLE_TYPES].join(", ")}`],
  too_large: ["Read a smaller page, or the site's text or Markdown version"],
  robots_disallowed: [
    "The site's robots.txt asks Quarry not to read it: leave out --robots (QUARRY_ROBOTS) only if you may",
  ],
};

/** Hints for the statuses in a failed batch, each once, in the order the pages came. */
export function batchHints(pages: FetchedPage[]): string[] {
  const hints = pages.flatMap((p) => STATUS_HINTS[p.status] ?? ["Check the URL in a browser"]);
  return [...new Set(hints)];
}

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
    { suggestions: batchHints(pages) },
  );
}

/** The memory of pages read before, without the validators of a conditional request. */
function unconditional(memory: PageMemory | undefined): PageMemory | undefined {
  if (!memory) return undefined;
  return {
    validators: () => Promise.resolve(new Map()),
    archived: (url) => memory.archived(url),
    remember: (page) => memory.remember(page),
  };
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
    "token budget. PDFs are read too, with the page of each excerpt. Pages that fail come back " +
    "with a status (timeout, http_error, not_html, too_large, empty, unreadable, " +
    "private_address…) and a reason. Pages built by JavaScript are rendered in a headless " +
    "browser when one is configured (render: auto, always or never); such pages carry rendered: true.",
  input,
  positionals: [{ field: "urls", variadic: true }],
  http: { method: "GET", path: "/fetch" },
  mcp: {
    tool: "fetch_page",
    title: "Read web pages",
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  },
  async run(ctx, input): Promise<Envelope<FetchedPage>> {
    const started = ctx.now();
    const args = fetchArgs(input);
    // Tokens are counted only for excerpts (ranked as each page lands): a plain read needs no tokenizer.
    if (args.query !== undefined) await loadTokenizer();
    const urls = args.urls.map((raw) => checkUrl(raw).href);
    requireBrowser(ctx, args.render);
    const timeoutMs = args.timeout ?? ctx.config.timeoutMs;
    const deadlineMs = batchDeadline(timeoutMs, args.deadline);
    const deps = readDeps(ctx);
    // A 304 brings no body: raw needs the page itself (html is kept with the page).
    const fresh = args.format === "raw";
    const read = (allowed: string[]) =>
      readPages(
        allowed,
        {
          fetch: fetchOptions(ctx, { timeoutMs, deadlineMs }),
          query: args.query,
          render: args.render,
        },
        { ...deps, memory: fresh ? unconditional(deps.memory) : deps.memory },
      );
    const pages = await readUnderRobots(ctx, urls, args.robots || ctx.config.robots, read);
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
