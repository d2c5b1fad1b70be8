/**
 * `quarry docs <library> <query>`: authoritative library documentation from
 * Context7, cut to a token budget and cached for a day.
 * @module
 */
import { z } from "zod";
import { parseDuration } from "../config.ts";
import { QuarryError } from "../errors.ts";
import {
  CONTEXT7,
  type DocSnippet,
  fetchContext,
  LIBRARY_ID,
  libraryNotFound,
  pickLibrary,
  searchLibraries,
} from "../pipeline/apis/context7.ts";
import { DEFAULT_RETRY_CONFIG, requireKey } from "../pipeline/apis/retry.ts";
import { countTokens, loadTokenizer, truncateToTokens } from "../text/tokens.ts";
import { type Envelope, failure } from "../envelope.ts";
import { withCache } from "./with_cache.ts";
import { forceField, noCacheField } from "./cache.ts";
import { durationField } from "./schemas.ts";
import { defineOp, type OpContext } from "./types.ts";

/** Documentation changes slowly: answers are kept a day. */
export const DOCS_CACHE_TTL_MS = 24 * 3_600_000;
/** Default token budget of a docs answer. */
export const DEFAULT_DOCS_MAX_TOKENS = 2000;

const input = z.object({
  library: z.string().trim().min(1).max(500).describe(
    "Library name (e.g. react, next.js, hono) or a Context7 ID such as /facebook/react",
  ),
  query: z.string().trim().min(1).max(500).describe("What you want to know about the library"),
  maxTokens: z.number().int().positive().max(100_000).default(DEFAULT_DOCS_MAX_TOKENS).describe(
    "Token budget for the documentation returned, counted exactly",
  ),
  timeout: durationField("Timeout of each request to Context7, e.g. 30s (default 30s)").optional(),
  force: forceField,
  noCache: noCacheField,
});

/** Input of the `docs` operation. */
export type DocsInput = z.infer<typeof input>;

/** One documentation snippet of a `docs` answer. */
export interface DocResult extends DocSnippet {
  tokens: number;
}

const FENCE = /^```/gm;

/** Drops a code block that a cut left open, rather than return half a fence. */
function closedFences(text: string): string {
  const fences = text.match(FENCE)?.length ?? 0;
  return fences % 2 === 0 ? text : text.slice(0, text.lastIndexOf("```")).trimEnd();
}

/**
 * Snippets in order while they fit the budget (exact token counts of title
 * and content). A first snippet larger than the whole budget is cut at a
 * paragraph or sentence, so the answer is never empty.
 */
export function fitSnippets(snippets: DocSnippet[], maxTokens: number): DocResult[] {
  const out: DocResult[] = [];
  let used = 0;
  for (const snippet of snippets) {
    const tokens = countTokens(`${snippet.title}\n\n${snippet.content}`);
    if (used + tokens <= maxTokens) {
      out.push({ ...snippet, tokens });
      used += tokens;
      continue;
    }
    if (out.length === 0) {
      const room = maxTokens - countTokens(`${snippet.title}\n\n`);
      const content = closedFences(truncateToTokens(snippet.content, room).text);
      const total = countTokens(`${snippet.title}\n\n${content}`);
      if (content && total <= maxTokens) out.push({ ...snippet, content, tokens: total });
    }
    break;
  }
  return out;
}

async function compute(ctx: OpContext, args: DocsInput): Promise<Envelope<DocResult>> {
  const started = ctx.now();
  const key = requireKey(ctx.config.keys.context7, CONTEXT7);
  const call = {
    baseUrl: ctx.config.urls.context7,
    key,
    retry: {
      ...DEFAULT_RETRY_CONFIG,
      ...(args.timeout ? { timeoutMs: parseDuration(args.timeout, "--timeout") } : {}),
    },
  };
  let libraryId = args.library;
  let libraryTitle: string | undefined;
  if (!LIBRARY_ID.test(args.library)) {
    const found = await searchLibraries(ctx, call, args.library, args.query);
    const best = pickLibrary(args.library, found);
    if (!best) throw libraryNotFound(args.library, found);
    libraryId = best.id;
    libraryTitle = best.title;
  }
  const context = await fetchContext(ctx, call, libraryId, args.query);
  if (context.snippets.length === 0) {
    throw new QuarryError(
      "NOT_FOUND",
      `Context7 has no documentation for "${args.query}" in ${context.libraryId}`,
      { suggestions: ["Rephrase the question with the library's own terms"] },
    );
  }
  const results = fitSnippets(context.snippets, args.maxTokens);
  return {
    success: true,
    command: "docs",
    query: args.query,
    results,
    metadata: {
      library_id: context.libraryId,
      ...(libraryTitle === undefined ? {} : { library_title: libraryTitle }),
      total_available: context.snippets.length,
      returned: results.length,
      tokens_used: results.reduce((n, r) => n + r.tokens, 0),
      max_tokens: args.maxTokens,
      confidence: "HIGH",
      backend: "context7",
      elapsed_ms: ctx.now() - started,
    },
  };
}

/** The `docs` operation. */
export const docsOp = defineOp({
  name: "docs",
  command: ["docs"],
  summary: "Library documentation from Context7, within a token budget",
  description: "Look up up-to-date documentation and code examples of a software library through " +
    "Context7. Give the library name (or a Context7 ID like /facebook/react) and a question; " +
    "returns the most relevant snippets {title, content, source_url, tokens} until max_tokens " +
    "is spent (exact counts), with the resolved library_id. Needs CONTEXT7_API_KEY. Answers " +
    "are cached for 24 h (force to refresh). An unknown library fails with LIBRARY_NOT_FOUND " +
    "and close names as suggestions.",
  input,
  positionals: [{ field: "library" }, { field: "query" }],
  http: { method: "GET", path: "/docs" },
  mcp: {
    tool: "library_docs",
    title: "Library documentation (Context7)",
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  },
  async run(ctx, args): Promise<Envelope<DocResult>> {
    try {
      return await withCache(ctx, "docs", args, {
        ttlMs: DOCS_CACHE_TTL_MS,
        force: args.force,
        noCache: args.noCache,
        index: [args.query, args.library],
      }, async () => {
        await loadTokenizer();
        return await compute(ctx, args);
      });
    } catch (error) {
      return failure("docs", error, { query: args.query });
    }
  },
  render(envelope, args) {
    if (!envelope.success) return "";
    const meta = envelope.metadata;
    const lines = [`# ${meta.library_title ?? meta.library_id}: ${args.query}`, ""];
    for (const r of envelope.results as DocResult[]) {
      lines.push(`## ${r.title}`, "", r.content, "");
      if (r.source_url) lines.push(`Source: ${r.source_url}`, "");
    }
    lines.push(
      "---",
      "",
      `_${meta.returned} of ${meta.total_available} snippets from ${meta.library_id}, ` +
        `${meta.tokens_used}/${meta.max_tokens} tokens${meta.cache_hit ? ", cached" : ""}_`,
    );
    return lines.join("\n") + "\n";
  },
});
