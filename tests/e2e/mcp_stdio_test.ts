/**
 * `quarry mcp` fed raw lines, as a broken or hostile client would send them.
 * @module
 */
import assert from "node:assert/strict";
import { startFixtureWeb } from "../support/fixture_web.ts";
import { quarryCommand, tempHome } from "../support/run_quarry.ts";

interface Reply {
  id: string | number | null;
  result?: { isError?: boolean; structuredContent?: { results?: { status: string }[] } };
  error?: { code: number; message: string };
}

const INIT = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

/** Runs `quarry mcp`, writes `lines`, closes stdin, and returns every reply it printed. */
async function exchange(lines: string[], env: Record<string, string> = {}): Promise<Reply[]> {
  const spec = quarryCommand(["mcp"], await tempHome(), env);
  const child = new Deno.Command(spec.command, {
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  for (const line of lines) await writer.write(new TextEncoder().encode(line + "\n"));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim().split("\n").filter(Boolean).map((l) =>
    JSON.parse(l)
  );
}

Deno.test("quarry mcp answers every malformed line and keeps serving", async () => {
  const replies = await exchange([
    "{not json",
    "[]",
    "42",
    "{}",
    JSON.stringify(INIT),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "fetch_page", arguments: [1, 2] },
    }),
    `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"${"x".repeat(11 * 1024 * 1024)}"}}`,
    JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
  ]);
  // Answers to lines the server refuses itself may overtake answers from the SDK.
  const order = (r: Reply) => replies.indexOf(r);
  const codes = replies.map((r) => [r.id, r.error?.code ?? "ok"]);
  assert.deepEqual(codes.filter(([id]) => id === null), [
    [null, -32700],
    [null, -32600],
    [null, -32600],
    [null, -32600],
    [null, -32600],
  ]);
  assert.deepEqual(codes.filter(([id]) => id !== null).sort(), [
    [5, -32602],
    [7, "ok"],
    ["init", "ok"],
  ]);
  const bad = replies.find((r) => r.id === 5)!;
  assert.match(bad.error!.message, /arguments must be an object/);
  const big = replies.filter((r) => r.id === null).at(-1)!;
  assert.match(big.error!.message, /over \d+ bytes/);
  // The server read on after the oversized line.
  assert.ok(order(big) < order(replies.find((r) => r.id === 7)!));
});

Deno.test("quarry mcp answers calls in flight when stdin closes", async () => {
  const web = await startFixtureWeb();
  try {
    const replies = await exchange([
      JSON.stringify(INIT),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: "read",
        method: "tools/call",
        params: { name: "fetch_page", arguments: { urls: [`${web.origin}/fault/delay?ms=400`] } },
      }),
    ]);
    const read = replies.find((r) => r.id === "read");
    assert.ok(read?.result, JSON.stringify(replies));
    // The page took longer than stdin stayed open, and was still read and answered.
    assert.equal(read.result.structuredContent?.results?.length, 1);
  } finally {
    await web.close();
  }
});
