/**
 * `quarry mcp` end to end, driven as an agent host drives it: the SDK's
 * Client over stdio, spawning the real program with its scoped permissions.
 * @module
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { OPERATIONS } from "../../src/ops/registry.ts";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { quarryCommand, tempHome } from "../support/run_quarry.ts";

const PAGE = "/pages/faces/dry-stone-walls.html";
const QUERY = "why does HTTP/3 avoid head-of-line blocking";

type Result = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};

Deno.test("quarry mcp on stdio: tools, a page read, a tool error, bad arguments", async (t) => {
  const web = await startFixtureWeb();
  const spec = quarryCommand(["mcp"], await tempHome(), {
    QUARRY_DDG_URL: `${web.origin}/research`,
    QUARRY_ENGINES: "duckduckgo",
    QUARRY_CONTEXT7_URL: `${web.origin}/context7`,
    CONTEXT7_API_KEY: "ctx7sk-e2e",
  });
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    stderr: "pipe",
  });
  const problems: unknown[] = [];
  const client = new Client({ name: "e2e", version: "0" });
  client.onerror = (error) => problems.push(error);
  try {
    await client.connect(transport);

    await t.step("lists one tool per op with an mcp entry, with schemas", async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name).sort(),
        OPERATIONS.flatMap((op) => (op.mcp ? [op.mcp.tool] : [])).sort(),
      );
      const fetchPage = tools.find((tool) => tool.name === "fetch_page")!;
      const props = Object.keys(fetchPage.inputSchema.properties ?? {});
      for (const name of ["urls", "url", "start", "start_index", "max", "max_length", "format"]) {
        assert.ok(props.includes(name), name);
      }
      assert.equal(fetchPage.outputSchema?.type, "object");
      assert.equal(fetchPage.annotations?.readOnlyHint, true);
    });

    await t.step("fetch_page returns the page as text and the envelope", async () => {
      const result = await client.callTool({
        name: "fetch_page",
        arguments: { urls: [`${web.origin}${PAGE}`] },
      }) as Result;
      assert.equal(result.isError, undefined);
      assert.match(result.content[0]!.text!, /one over two, two over one/);
      const envelope = result.structuredContent!;
      assert.equal(envelope.success, true);
      assert.equal((envelope.results as { byline: string }[])[0]!.byline, "Ada Whitlock");
    });

    await t.step(
      "resources/list shows the page fetch_page just read, and it reads back",
      async () => {
        const { resources } = await client.listResources();
        const page = resources.find((r) => r.description === `${web.origin}${PAGE}`);
        assert.ok(page, JSON.stringify(resources));
        assert.match(page.uri, /^quarry:\/\/document\/\d+$/);
        const read = await client.readResource({ uri: page.uri });
        assert.match((read.contents[0] as { text: string }).text, /one over two, two over one/);
      },
    );

    await t.step(
      "fetch_page takes mcp-server-fetch's url, start_index and max_length",
      async () => {
        const whole = await client.callTool({
          name: "fetch_page",
          arguments: { url: `${web.origin}${PAGE}`, format: "text" },
        }) as Result;
        assert.equal(whole.isError, undefined, whole.content[0]?.text);
        const full = (whole.structuredContent!.results as { content: string }[])[0]!.content;
        const part = await client.callTool({
          name: "fetch_page",
          arguments: {
            url: `${web.origin}${PAGE}`,
            format: "text",
            start_index: 10,
            max_length: 40,
          },
        }) as Result;
        const page = (part.structuredContent!.results as {
          content: string;
          next_start: number;
        }[])[0]!;
        assert.equal(page.content, full.slice(10, 50));
        assert.equal(page.next_start, 50);
        const html = await client.callTool({
          name: "fetch_page",
          arguments: { url: `${web.origin}${PAGE}`, format: "html" },
        }) as Result;
        const article = (html.structuredContent!.results as { content: string }[])[0]!.content;
        assert.match(article, /<p>/);
        assert.doesNotMatch(article, /<script|<nav/);
        const none = await client.callTool({ name: "fetch_page", arguments: {} }) as Result;
        assert.equal(none.isError, true);
        assert.match(none.content[0]!.text!, /urls or url/);
      },
    );

    await t.step("fetch_page reads a PDF and cites the page of each excerpt", async () => {
      const result = await client.callTool({
        name: "fetch_page",
        arguments: {
          urls: [`${web.origin}/pdf/gen/report.pdf`],
          query: "seals rotor",
          budget: 200,
        },
      }) as Result;
      assert.equal(result.isError, undefined);
      assert.match(result.content[0]!.text!, /Seals changed course[^\n]*_\(p\. 3\)_/);
      const page = (result.structuredContent!.results as { excerpts: { page?: number }[] }[])[0]!;
      assert.ok(page.excerpts.some((e) => e.page === 3));
    });

    await t.step("a bad URL is a tool error with its code and a hint", async () => {
      const result = await client.callTool({
        name: "fetch_page",
        arguments: { urls: ["ftp://example.com/file"] },
      }) as Result;
      assert.equal(result.isError, true);
      assert.match(result.content[0]!.text!, /^error \[BAD_INPUT\]/);
      assert.match(result.content[0]!.text!, /hint: /);
      assert.equal((result.structuredContent!.error as { code: string }).code, "BAD_INPUT");
    });

    await t.step("arguments that break the schema are refused before the op runs", async () => {
      const result = await client.callTool({
        name: "fetch_page",
        arguments: { urls: "not a list" },
      }) as Result;
      assert.equal(result.isError, true);
      assert.match(result.content[0]!.text!, /Input validation error/);
      assert.equal(result.structuredContent, undefined);
    });

    await t.step("web_search, search_results, library_docs and clear_cache answer", async () => {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args }) as Result;
        assert.equal(result.isError, undefined, `${name}: ${result.content[0]?.text}`);
        assert.equal(result.structuredContent!.success, true, name);
        return result;
      };
      const search = await call("web_search", { query: QUERY, count: 3, timeout: "1s" });
      assert.match(JSON.stringify(search.structuredContent), /lost packet/);
      const links = await call("search_results", { query: QUERY });
      assert.ok((links.structuredContent!.results as unknown[]).length > 0);
      await call("library_docs", { library: "react", query: "useState hook", maxTokens: 300 });
      await call("clear_cache", {});
    });

    assert.deepEqual(problems, [], "stdout carried only protocol messages");
  } finally {
    await client.close();
    await web.close();
  }
});
