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

/** A generic report for an operation without its own renderer. */
export function renderGeneric(envelope: Envelope): string {
  if (!envelope.success) return `error [${envelope.error.code}]: ${envelope.error.message}\n`;
  return JSON.stringify(envelope.results, null, 2) + "\n";
}
