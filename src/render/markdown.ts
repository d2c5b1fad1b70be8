/**
 * Markdown reports for the CLI: each page under `## <url>`, pages separated
 * by `---` (DESIGN §4).
 * @module
 */
import type { Envelope } from "../envelope.ts";

/** What a page section shows; every field but the URL is optional. */
export interface PageSection {
  url: string;
  status: string;
  reason?: string;
  title?: string;
  byline?: string | null;
  site?: string | null;
  published?: string | null;
  content?: string;
  excerpts?: { text: string; heading?: string[]; page?: number }[];
  next_start?: number | null;
}

function metaLine(page: PageSection): string {
  const parts = [page.site, page.byline, page.published].filter((p): p is string => !!p);
  return parts.join(" · ");
}

/** One page as a Markdown section. */
export function renderPage(page: PageSection): string {
  const lines = [`## ${page.url}`, ""];
  if (page.status !== "ok") {
    lines.push(`> **${page.status}**${page.reason ? `: ${page.reason}` : ""}`);
    return lines.join("\n");
  }
  if (page.title) lines.push(`**${page.title}**`, "");
  const meta = metaLine(page);
  if (meta) lines.push(`_${meta}_`, "");
  // An `ok` page with a reason was read in part (e.g. a PDF over the page cap).
  if (page.reason) lines.push(`> ${page.reason}`, "");
  if (page.excerpts) {
    for (const e of page.excerpts) {
      if (e.heading && e.heading.length > 0) lines.push(`### ${e.heading.join(" › ")}`, "");
      lines.push(e.page === undefined ? e.text : `${e.text} _(p. ${e.page})_`, "");
    }
  } else if (page.content !== undefined) {
    lines.push(page.content, "");
  }
  if (page.next_start !== undefined && page.next_start !== null) {
    lines.push(`_More content: --start ${page.next_start}_`, "");
  }
  return lines.join("\n").trimEnd();
}

/** Pages as one Markdown report. */
export function renderPages(pages: PageSection[]): string {
  return pages.map(renderPage).join("\n\n---\n\n") + "\n";
}

/** "45 s", "12 min", "3 h", "2 days": an age in the largest unit that fits. */
export function humanAge(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 36) return `${h} h`;
  const days = Math.round(h / 24);
  return `${days} day${days === 1 ? "" : "s"}`;
}

/**
 * The line a report ends with when its answer came from the cache: how old
 * it is and how to refresh it. Empty for a fresh answer.
 */
export function cacheNote(envelope: Envelope): string {
  const meta = envelope.metadata as Record<string, unknown> | undefined;
  if (meta?.cache_hit !== true) return "";
  const age = typeof meta.cache_age_ms === "number" ? `${humanAge(meta.cache_age_ms)} old` : "";
  const at = typeof meta.cached_at === "string" ? `cached ${meta.cached_at}` : "";
  const when = [age, at].filter(Boolean).join(", ");
  return `\n_From the cache${when ? ` (${when})` : ""}; --force asks again._\n`;
}

/** A generic report for an operation without its own renderer. */
export function renderGeneric(envelope: Envelope): string {
  if (!envelope.success) return `error [${envelope.error.code}]: ${envelope.error.message}\n`;
  return JSON.stringify(envelope.results, null, 2) + "\n";
}
