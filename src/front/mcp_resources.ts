/**
 * Archived documents as MCP resources: `quarry://document/{id}`, a resource
 * template whose listing shows the most recently read documents, so an agent
 * can re-read a page Quarry already fetched without going to the web again.
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { OpContext } from "../ops/types.ts";
import type { ArchivedDocument } from "../store/archive/types.ts";

/** URI template of an archived document. */
export const DOCUMENT_URI = "quarry://document/{id}";

/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

/** Documents per page of `resources/list` (newest read first; a cursor gives the next page). */
export const DOCUMENT_LIST_LIMIT = 100;

/** A document as a listing shows it. */
export interface DocumentSummary {
  id: string;
  url: string | null;
  path?: string | null;
  title: string;
}

/** What the resources need of the archive. */
export interface DocumentSource {
  get(id: string): ArchivedDocument | undefined;
  /** Documents by when they were last read, newest first, and how many there are. */
  list(options: { limit: number; offset: number; order: "read" }): {
    hits: DocumentSummary[];
    total: number;
  };
}

const CURSOR = /^o(\d{1,9})$/;

/** The opaque cursor of the page starting at `offset`. */
export function listCursor(offset: number): string {
  return btoa(`o${offset}`);
}

/** The offset a cursor stands for; a cursor Quarry did not issue is an invalid-params error. */
export function cursorOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let decoded = "";
  try {
    decoded = atob(cursor);
  } catch {
    // falls through to the error below
  }
  const match = CURSOR.exec(decoded);
  if (!match) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown cursor "${cursor}"`, {
      hint: "Pass the nextCursor of the previous resources/list answer, or none",
    });
  }
  return Number(match[1]);
}

/** One page of the document listing, as `resources/list` answers. */
export function listPage(source: DocumentSource, cursor: string | undefined, perPage: number) {
  const offset = cursorOffset(cursor);
  const { hits, total } = source.list({ limit: perPage, offset, order: "read" });
  const next = offset + hits.length;
  return {
    resources: hits.map((doc) => ({
      uri: documentUri(doc.id),
      name: doc.title || doc.url || doc.path || doc.id,
      title: doc.title || doc.url || doc.path || doc.id,
      mimeType: "text/markdown",
      ...(doc.url ?? doc.path ? { description: (doc.url ?? doc.path)! } : {}),
    })),
    ...(hits.length > 0 && next < total ? { nextCursor: listCursor(next) } : {}),
  };
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

/**
 * Registers the document template; the archive opens on first use. The SDK
 * hands a template's list callback no cursor, so `resources/list` is
 * answered here, a page at a time.
 */
export function registerDocuments(
  server: McpServer,
  context: OpContext,
  perPage = DOCUMENT_LIST_LIMIT,
): void {
  const open = (): Promise<DocumentSource> => context.stores.archive();
  const template = new ResourceTemplate(DOCUMENT_URI, {
    list: async () => listPage(await open(), undefined, perPage),
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
  server.server.setRequestHandler(
    ListResourcesRequestSchema,
    async (request) => listPage(await open(), request.params?.cursor, perPage),
  );
}
