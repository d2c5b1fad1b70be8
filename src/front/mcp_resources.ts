/**
 * Archived documents as MCP resources: `quarry://document/{id}`, a resource
 * template whose listing shows the most recently read documents, so an agent
 * can re-read a page Quarry already fetched without going to the web again.
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { OpContext } from "../ops/types.ts";
import type { ArchivedDocument } from "../store/archive/types.ts";

/** URI template of an archived document. */
export const DOCUMENT_URI = "quarry://document/{id}";

/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

/** Most documents a listing shows (newest first). */
export const DOCUMENT_LIST_LIMIT = 100;

/** A document as a listing shows it. */
export interface DocumentSummary {
  id: string;
  url: string | null;
  title: string;
  fetchedAt?: string;
}

/** What the resources need of the archive. */
export interface DocumentSource {
  get(id: string): ArchivedDocument | undefined;
  /** Newest documents first; a listing is empty while the archive has no such method. */
  list?(options: { limit: number }): DocumentSummary[];
}

/** `quarry://document/42`. */
export function documentUri(id: string): string {
  return DOCUMENT_URI.replace("{id}", encodeURIComponent(id));
}

/** A document as Markdown: title, where it came from, then its text. */
export function documentText(doc: ArchivedDocument): string {
  const meta = [doc.url ?? doc.path, doc.byline, doc.publishedAt, `read ${doc.fetchedAt}`]
    .filter((part): part is string => !!part);
  return `# ${doc.title}\n\n_${meta.join(" · ")}_\n\n${doc.content}\n`;
}

/** Registers the document template; the archive opens on first use. */
export function registerDocuments(server: McpServer, context: OpContext): void {
  const open = (): Promise<DocumentSource> => context.stores.archive();
  const template = new ResourceTemplate(DOCUMENT_URI, {
    list: async () => {
      const archive = await open();
      const docs = archive.list?.({ limit: DOCUMENT_LIST_LIMIT }) ?? [];
      return {
        resources: docs.map((doc) => ({
          uri: documentUri(doc.id),
          name: doc.title || doc.url || doc.id,
          mimeType: "text/markdown",
          ...(doc.url ? { description: doc.url } : {}),
        })),
      };
    },
  });
  server.registerResource("document", template, {
    title: "Archived document",
    description: "A page or file Quarry has read, with its text as Markdown",
    mimeType: "text/markdown",
  }, async (uri, variables) => {
    const id = String(variables.id ?? "");
    const doc = (await open()).get(decodeURIComponent(id));
    if (!doc) {
      throw new McpError(RESOURCE_NOT_FOUND, `Document ${id} is not in the archive`, {
        uri: uri.href,
      });
    }
    return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: documentText(doc) }] };
  });
}
