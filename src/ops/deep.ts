/**
 * `quarry deep <query>`: exhaustive multi-source research by Perplexity's
 * deep-research model, cut to a token budget, cached for six hours, and
 * archived as a `research` document whose citations enter the graph.
 * @module
 */
import { z } from "zod";
import { parseDuration } from "../config.ts";
import { DEFAULT_RETRY_CONFIG, requireKey } from "../pipeline/apis/retry.ts";
import {
  type Citation,
  type Completion,
  deepResearch,
  MARKER,
  markersIn,
  PERPLEXITY,
} from "../pipeline/apis/perplexity.ts";
import { countTokens, loadTokenizer, truncateToTokens } from "../text/tokens.ts";
import { type Envelope, failure, type SuccessEnvelope } from "../envelope.ts";
import type { Archive } from "../store/archive/archive.ts";
import { sentenceAround } from "../store/graph/citations.ts";
import { withCache } from "./with_cache.ts";
import { forceField, noCacheField } from "./cache.ts";
import { durationField } from "./schemas.ts";
import { defineOp, type OpContext } from "./types.ts";

/** Research goes stale faster than documentation: answers are kept six hours. */
export const DEEP_CACHE_TTL_MS = 6 * 3_600_000;
/** Default token budget of the answer (citations come on top). */
export const DEFAULT_DEEP_MAX_TOKENS = 4000;
/** Deep research searches and reads for minutes before it answers. */
export const DEEP_TIMEOUT_MS = 300_000;
const BACKEND = "perplexity-deep-research";
const FIRST_HEADING = /^#\s+(.+)$/m;

const input = z.object({
  query: z.string().trim().min(1).max(4000).describe("The research question"),
  maxTokens: z.number().int().positive().max(100_000).default(DEFAULT_DEEP_MAX_TOKENS).describe(
    "Token budget of the answer, counted exactly; it is cut at a paragraph boundary",
  ),
  timeout: durationField("Timeout of the request to Perplexity, e.g. 5m (default 5m)").optional(),
  force: forceField,
  noCache: noCacheField,
});

/** Input of the `deep` operation. */
export type DeepInput = z.infer<typeof input>;

/** A `deep` answer: the envelope with the report, its citations as results. */
export type DeepEnvelope = SuccessEnvelope<Citation> & { answer: string };

/**
 * Archives the full report as a `research` document, its sources listed
 * after it so the text names them, and each citation as a graph edge of kind
 * `citation` whose context is the sentence that cites it. Returns the id.
 */
export function archiveReport(
  archive: Archive,
  query: string,
  completion: Completion,
  fetchedAt: string,
): string {
  const { answer, citations } = completion;
  const sources = citations.map((c) => `[${c.index}] ${c.title ? `${c.title}: ` : ""}${c.url}`);
  const content = sources.length ? `${answer}\n\n## Sources\n\n${sources.join("\n")}` : answer;
  const [outcome] = archive.upsertDocuments([{
    url: null,
    title: FIRST_HEADING.exec(answer)?.[1]?.trim() ?? query,
    content,
    query,
    fetchedAt,
    source: "research",
    type: "report",
    metadata: { backend: BACKEND, model: completion.model, usage: completion.usage },
  }]);
  const id = outcome!.id;
  const edges = citations.map((c) => {
    const at = answer.indexOf(`[${c.index}]`);
    const context = at >= 0 ? sentenceAround(answer, at, at + `[${c.index}]`.length) : "";
    return {
      sourceId: id,
      targetUrl: c.url,
      context: context || c.title || c.url,
      confidence: 1,
      kind: "citation" as const,
    };
  });
  archive.replaceCitations(id, ["citation"], edges);
  archive.recordQuery(query, "deep", fetchedAt, [id]);
  return id;
}

async function compute(ctx: OpContext, args: DeepInput): Promise<Envelope<Citation>> {
  const started = ctx.now();
  const completion = await deepResearch(ctx, {
    baseUrl: ctx.config.urls.perplexity,
    key: requireKey(ctx.config.keys.perplexity, PERPLEXITY),
    model: ctx.config.perplexityModel,
    retry: {
      ...DEFAULT_RETRY_CONFIG,
      timeoutMs: args.timeout ? parseDuration(args.timeout, "--timeout") : DEEP_TIMEOUT_MS,
    },
  }, args.query);
  const cut = truncateToTokens(completion.answer, args.maxTokens);
  const used = new Set(markersIn(cut.text));
  const results = completion.citations.map((c) => ({ ...c, cited: used.has(c.index) }));
  const known = new Set(results.map((c) => c.index));
  let archiveId: string | null = null;
  let archiveError: string | undefined;
  try {
    const archive = await ctx.stores.archive();
    archiveId = archiveReport(archive, args.query, completion, new Date(ctx.now()).toISOString());
  } catch (error) {
    // The answer is worth returning even when it could not be kept.
    archiveError = error instanceof Error ? error.message : String(error);
  }
  const envelope: DeepEnvelope = {
    success: true,
    command: "deep",
    query: args.query,
    answer: cut.text,
    results,
    metadata: {
      backend: BACKEND,
      model: completion.model ?? ctx.config.perplexityModel,
      confidence: "MEDIUM",
      total_available: results.length,
      returned: results.length,
      tokens_used: cut.tokens,
      max_tokens: args.maxTokens,
      answer_tokens: cut.truncated ? countTokens(completion.answer) : cut.tokens,
      truncated: cut.truncated,
      unresolved_markers: [...used].filter((n) => !known.has(n)),
      usage: completion.usage,
      archive_id: archiveId,
      ...(archiveError === undefined ? {} : { archive_error: archiveError }),
      elapsed_ms: ctx.now() - started,
    },
  };
  return envelope;
}

/** The answer with each resolvable `[n]` made a link to its source. */
export function linkMarkers(answer: string, citations: Citation[]): string {
  const urls = new Map(citations.map((c) => [c.index, c.url]));
  return answer.replace(MARKER, (marker, n: string) => {
    const url = urls.get(Number(n));
    return url ? `[[${n}]](${url})` : marker;
  });
}

/** The `deep` operation. */
export const deepOp = defineOp({
  name: "deep",
  command: ["deep"],
  summary: "Deep multi-source research by Perplexity, with citations",
  description:
    "Ask Perplexity's deep-research model a question that needs many sources and synthesis " +
    "(slow: it searches and reads for minutes). Returns `answer` (Markdown, reasoning removed, " +
    "cut to max_tokens at a paragraph) and its citations as results {index, url, title, date, " +
    "snippet, cited}, where index is the n of the [n] markers in the answer. The report is " +
    "archived (search it later with search_archive). Needs PERPLEXITY_API_KEY; cached 6 h.",
  input,
  positionals: [{ field: "query" }],
  http: { method: "GET", path: "/deep" },
  mcp: {
    tool: "deep_research",
    title: "Deep research (Perplexity)",
    annotations: { readOnlyHint: false, openWorldHint: true, idempotentHint: true },
  },
  async run(ctx, args): Promise<Envelope<Citation>> {
    try {
      return await withCache(ctx, "deep", args, {
        ttlMs: DEEP_CACHE_TTL_MS,
        force: args.force,
        noCache: args.noCache,
      }, async () => {
        await loadTokenizer();
        return await compute(ctx, args);
      });
    } catch (error) {
      return failure("deep", error, { query: args.query });
    }
  },
  render(envelope, args) {
    if (!envelope.success) return "";
    const deep = envelope as DeepEnvelope;
    const citations = deep.results;
    const heading = FIRST_HEADING.test(deep.answer) ? [] : [`# ${args.query}`, ""];
    const lines = [...heading, linkMarkers(deep.answer, citations), ""];
    if (deep.metadata.truncated) {
      lines.push(
        `_Answer cut to ${deep.metadata.max_tokens} tokens; raise --max-tokens for more._`,
        "",
      );
    }
    if (citations.length) {
      lines.push("## Sources", "");
      for (const c of citations) lines.push(`${c.index}. ${c.title ? `${c.title}: ` : ""}${c.url}`);
      lines.push("");
    }
    return lines.join("\n");
  },
});
