/**
 * `quarry links <query>`: search results only, no page is fetched. The
 * engine chain answers with failover; the envelope names the engine that
 * answered and every attempt.
 * @module
 */
import { z } from "zod";
import {
  EngineChainError,
  fusionCount,
  searchEngines,
  TIME_RANGES,
} from "../pipeline/engines/mod.ts";
import type { Attempt } from "../pipeline/engines/types.ts";
import type { EngineRank } from "../pipeline/types.ts";
import { kvHealth } from "../store/kv/health.ts";
import { parseQuery } from "../pipeline/query.ts";
import { type Envelope, failure } from "../envelope.ts";
import { defineOp } from "./types.ts";

/** Most results one call returns. */
export const MAX_LINKS = 50;

const input = z.object({
  query: z.string().trim().min(1).max(2000).describe(
    'Search terms; operators: site:, -site:, "phrase", -term, filetype:, OR',
  ),
  count: z.number().int().min(1).max(MAX_LINKS).default(5).describe("Results to return"),
  engine: z.string().optional().describe(
    "Engines to ask, in order, comma-separated (default: QUARRY_ENGINES or the keyless chain)",
  ),
  fusion: z.boolean().optional().describe(
    "Ask several engines at once (QUARRY_FUSION, else 3) and merge their lists by reciprocal " +
      "rank fusion; each result lists every engine that returned it",
  ),
  region: z.string().max(20).optional().describe("Region such as us-en or de-de"),
  time: z.enum(TIME_RANGES).optional().describe(
    "Only results from the last day, week, month or year",
  ),
});

/** One search result of a `links` answer. */
export interface LinkResult {
  url: string;
  title: string;
  snippet: string;
  engine: string;
  rank: number;
  published?: string;
  /** Every engine that returned the result and its rank there. */
  engines: EngineRank[];
}

/** The `links` operation. */
export const linksOp = defineOp({
  name: "links",
  command: ["links"],
  summary: "Search the web and list the results, without reading the pages",
  description:
    "Search the web and return the result list (URL, title, snippet, engine, rank, date when " +
    "known) without fetching any page. Engines are asked in order with failover: a blocked " +
    "engine is skipped for a while and the next one answers. Supports site:, -site:, " +
    '"exact phrase", -term, filetype: and OR, enforced on every result. Use it to find ' +
    "URLs to read with fetch_page, or when titles and snippets are enough.",
  input,
  positionals: [{ field: "query" }],
  short: { count: "n" },
  http: { method: "GET", path: "/links" },
  mcp: {
    tool: "search_results",
    title: "Web search results",
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  async run(ctx, args): Promise<Envelope<LinkResult>> {
    const started = ctx.now();
    const health = kvHealth(await ctx.stores.kv());
    try {
      const answer = await searchEngines(parseQuery(args.query), {
        count: args.count,
        fusion: fusionCount(ctx.config, args.fusion),
        ...(args.region ? { region: args.region } : {}),
        ...(args.time ? { time: args.time } : {}),
        ...(args.engine ? { engines: args.engine.split(",") } : {}),
      }, { ...ctx, health });
      const results: LinkResult[] = answer.candidates.map((c) => ({
        url: c.url,
        title: c.title,
        snippet: c.snippet,
        engine: c.engine,
        rank: c.rank,
        ...(c.published === undefined ? {} : { published: c.published }),
        engines: c.engines ?? [{ engine: c.engine, rank: c.rank }],
      }));
      return {
        success: true,
        command: "links",
        query: args.query,
        results,
        metadata: {
          engine: answer.engine,
          attempts: answer.attempts,
          total_available: answer.totalAvailable,
          returned: results.length,
          elapsed_ms: ctx.now() - started,
        },
      };
    } catch (error) {
      const attempts = error instanceof EngineChainError ? error.attempts : [];
      return failure("links", error, {
        query: args.query,
        metadata: { attempts, elapsed_ms: ctx.now() - started },
      });
    }
  },
  render(envelope) {
    if (!envelope.success) return "";
    const results = envelope.results as LinkResult[];
    const engine = String(envelope.metadata.engine ?? "");
    const asked = Array.isArray(envelope.metadata.attempts) ? envelope.metadata.attempts.length : 0;
    const lines = [`# ${envelope.query ?? ""}`, ""];
    if (results.length === 0) {
      lines.push(
        `No results: ${asked} engine${asked === 1 ? "" : "s"} found nothing that matches.`,
      );
    }
    for (const r of results) {
      lines.push(
        `${r.rank}. [${r.title || r.url}](${r.url})${r.published ? ` · ${r.published}` : ""}`,
      );
      if (r.snippet) lines.push(`   ${r.snippet}`);
      if (r.engines.length > 1) {
        lines.push(`   _${r.engines.map((e) => `${e.engine} #${e.rank}`).join(", ")}_`);
      }
    }
    const n = results.length;
    if (n > 0) lines.push("", `_${n} result${n === 1 ? "" : "s"} from ${engine}_`);
    // What went wrong on the way belongs in the report too, not only in --json.
    const troubles = (Array.isArray(envelope.metadata.attempts) ? envelope.metadata.attempts : [])
      .filter((a: Attempt) => a.outcome === "blocked" || a.outcome === "error")
      .map((a: Attempt) => `- ${a.engine}: ${a.code}${a.message ? `: ${a.message}` : ""}`);
    if (troubles.length > 0) lines.push("", "Engines that failed:", ...troubles);
    return lines.join("\n") + "\n";
  },
});
