import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../src/front/mcp.ts";
import { DOCUMENT_URI } from "../../src/front/mcp_resources.ts";
import { Archive } from "../../src/store/archive/archive.ts";
import { FAKE_OPS, testContext } from "./fake_ops.ts";

async function withArchive(extra = 0, documentsPerPage?: number) {
  const context = await testContext();
  const archive = Archive.open(`${context.config.home}/archive.db`);
  const [outcome] = archive.upsertDocuments([{
    url: "https://fieldnotes.example/walls",
    title: "How dry-stone walls stand",
    content: "A dry-stone wall holds itself up by weight and friction alone.",
    byline: "Ada Whitlock",
    fetchedAt: "2026-01-02T03:04:05Z",
    source: "web",
  }]);
  archive.upsertDocuments(Array.from({ length: extra }, (_, i) => ({
    url: `https://older.example/${i}`,
    title: `Older page ${i}`,
    content: `Older text number ${i}.`,
    fetchedAt: `2025-12-${String(i + 1).padStart(2, "0")}T00:00:00Z`,
    source: "web" as const,
  })));
  const id = outcome!.id;
  const stores = { ...context.stores, archive: () => Promise.resolve(archive) };
  const server = createMcpServer(FAKE_OPS, { ...context, stores }, {
    ...(documentsPerPage === undefined ? {} : { documentsPerPage }),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0" });
  await Promise.all([server.connect(a), client.connect(b)]);
  return {
    client,
    id,
    async close() {
      await client.close();
      archive.close();
      await context.stores.close();
    },
  };
}

Deno.test("resources/list pages through the archive, newest first, with a cursor", async () => {
  const t = await withArchive(5, 2);
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await t.client.listResources(cursor === undefined ? {} : { cursor });
      names.push(...page.resources.map((r) => r.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(names, [
      "How dry-stone walls stand",
      "Older page 4",
      "Older page 3",
      "Older page 2",
      "Older page 1",
      "Older page 0",
    ]);
    await assert.rejects(
      t.client.listResources({ cursor: "not-ours" }),
      (error: { code?: number }) => error.code === -32602,
    );
  } finally {
    await t.close();
  }
});

Deno.test("archived documents are listed and read as quarry://document/{id}", async () => {
  const t = await withArchive();
  try {
    const { resourceTemplates } = await t.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((r) => r.uriTemplate), [DOCUMENT_URI]);
    const { resources } = await t.client.listResources();
    assert.deepEqual(resources.map((r) => [r.uri, r.name]), [
      [`quarry://document/${t.id}`, "How dry-stone walls stand"],
    ]);
    const read = await t.client.readResource({ uri: `quarry://document/${t.id}` });
    const content = read.contents[0] as { text: string; mimeType: string };
    assert.equal(content.mimeType, "text/markdown");
    assert.match(content.text, /^# How dry-stone walls stand/);
    assert.match(content.text, /Ada Whitlock/);
    assert.match(content.text, /weight and friction alone/);
  } finally {
    await t.close();
  }
});

Deno.test("reading a document that is not archived is a resource-not-found error", async () => {
  const t = await withArchive();
  try {
    await assert.rejects(
      t.client.readResource({ uri: "quarry://document/999999" }),
      (error: { code?: number }) => error.code === -32002,
    );
  } finally {
    await t.close();
  }
});
