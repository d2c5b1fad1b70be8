/**
 * Perplexity deep research: one `POST /chat/completions` with a
 * `sonar-deep-research` model, and the answer read out of it — the model's
 * `<think>` reasoning removed, its `[n]` markers resolved to the
 * `citations` URLs and, when present, the `search_results` that describe
 * them.
 * @module
 */
import { QuarryError } from "../../errors.ts";
import { type ApiService, type HttpDeps, requestJson, type RetryConfig } from "./retry.ts";

/** Perplexity as named in errors and hints. */
export const PERPLEXITY: ApiService = {
  name: "Perplexity",
  keyEnv: "PERPLEXITY_API_KEY",
  keyUrl: "https://www.perplexity.ai/settings/api",
};

/** Asks for the sources to be marked, which the citations list then resolves. */
export const DEEP_SYSTEM_PROMPT =
  "You are a careful research assistant. Answer thoroughly, in Markdown, and mark every claim " +
  "with the number of its source in square brackets, like [1].";

/** One source of an answer. */
export interface Citation {
  /** The `n` of the `[n]` markers that refer to it (1-based). */
  index: number;
  url: string;
  title: string | null;
  date: string | null;
  snippet: string | null;
  /** Whether the returned (possibly shortened) answer refers to it. */
  cited: boolean;
}

/** What a completion says, before any budget. */
export interface Completion {
  model: string | null;
  /** The answer with reasoning removed. */
  answer: string;
  citations: Omit<Citation, "cited">[];
  usage: Record<string, number>;
}

const THINK_BLOCK = /<think>[\s\S]*?<\/think>\s*/gi;
/** A reasoning block cut off before its end tag: everything after it is reasoning. */
const UNCLOSED_THINK = /<think>[\s\S]*$/i;
/** `[3]`, as models mark sources; not `[x]` or a Markdown link's `[text](…)`. */
export const MARKER = /\[(\d{1,3})\](?!\()/g;

/** Removes `<think>…</think>` reasoning (and a cut-off `<think>` tail). */
export function stripThink(text: string): string {
  return text.replace(THINK_BLOCK, "").replace(UNCLOSED_THINK, "").trim();
}

function str(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function malformed(): QuarryError {
  return new QuarryError("UPSTREAM_ERROR", "Perplexity sent an unexpected answer", {
    suggestions: ["Try again later; the API may have changed or be having trouble"],
  });
}

/**
 * Reads a chat completion. `citations` (URLs) give the numbering;
 * `search_results` add titles, dates and snippets, and stand in for
 * `citations` when only they are present.
 */
export function parseCompletion(data: unknown): Completion {
  const d = data as Record<string, unknown> | null;
  const choices = Array.isArray(d?.choices) ? d.choices : undefined;
  const content = str((choices?.[0] as { message?: { content?: unknown } })?.message?.content);
  if (content === null) throw malformed();
  const results = (Array.isArray(d?.search_results) ? d.search_results : [])
    .filter((r): r is Record<string, unknown> => str(r?.url) !== null);
  const byUrl = new Map(results.map((r) => [r.url as string, r]));
  const urls = Array.isArray(d?.citations)
    ? d.citations.map((c: unknown) => str(c) ?? str((c as { url?: unknown })?.url))
    : results.map((r) => r.url as string);
  const citations = urls.flatMap((url, i) => {
    if (url === null) return [];
    const info = byUrl.get(url);
    return [{
      index: i + 1,
      url,
      title: str(info?.title),
      date: str(info?.date) ?? str(info?.last_updated),
      snippet: str(info?.snippet),
    }];
  });
  const usage: Record<string, number> = {};
  for (const [k, v] of Object.entries((d?.usage ?? {}) as Record<string, unknown>)) {
    if (typeof v === "number") usage[k] = v;
  }
  return { model: str(d?.model), answer: stripThink(content), citations, usage };
}

/** The marker numbers an answer uses, each once, in order of first use. */
export function markersIn(text: string): number[] {
  return [...new Set([...text.matchAll(MARKER)].map((m) => Number(m[1])))];
}

/** Where and how to call Perplexity. */
export interface PerplexityCall {
  baseUrl: string;
  key: string;
  model: string;
  retry: RetryConfig;
}

/** Asks Perplexity one research question. */
export async function deepResearch(
  deps: HttpDeps,
  call: PerplexityCall,
  query: string,
): Promise<Completion> {
  const res = await requestJson(deps, PERPLEXITY, {
    url: `${call.baseUrl}/chat/completions`,
    method: "POST",
    headers: { authorization: `Bearer ${call.key}` },
    body: {
      model: call.model,
      messages: [
        { role: "system", content: DEEP_SYSTEM_PROMPT },
        { role: "user", content: query },
      ],
    },
  }, call.retry);
  const completion = parseCompletion(res.data);
  if (completion.answer === "") {
    throw new QuarryError("UPSTREAM_ERROR", "Perplexity returned reasoning but no answer", {
      suggestions: ["Try again; a deep research answer may have been cut off"],
    });
  }
  return completion;
}
