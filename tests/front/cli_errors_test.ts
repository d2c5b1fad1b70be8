import assert from "node:assert/strict";
import { z } from "zod";
import { runCli } from "../../src/front/cli.ts";
import { defineOp, type Operation } from "../../src/ops/types.ts";
import { testContext } from "./fake_ops.ts";

const brokenOp = defineOp({
  name: "broken",
  command: ["broken"],
  summary: "Fails the way a bug does",
  description: "Throws a TypeError; for tests.",
  input: z.object({}),
  run() {
    return Promise.reject(new TypeError("cannot read properties of undefined (reading 'x')"));
  },
}) as unknown as Operation;

Deno.test("an INTERNAL error on the CLI prints its cause, and the stack with QUARRY_DEBUG", async () => {
  const context = await testContext();
  await context.stores.close();
  const ops = [brokenOp];
  const io = (debug: boolean, sink: { err: string }) => ({
    stdout: () => {},
    stderr: (t: string) => void (sink.err += t),
    context: () => context,
    debug,
  });
  const plain = { err: "" };
  assert.equal(await runCli(["broken"], ops, io(false, plain)), 1);
  assert.match(plain.err, /error \[INTERNAL\]/);
  assert.match(plain.err, /cause: TypeError: cannot read properties of undefined/);
  assert.match(plain.err, /QUARRY_DEBUG=1/);
  assert.doesNotMatch(plain.err, /--diagnostics/);
  assert.doesNotMatch(plain.err, /\n\s+at /);
  const debug = { err: "" };
  await runCli(["broken"], ops, io(true, debug));
  assert.match(debug.err, /\n\s+at /);
});
