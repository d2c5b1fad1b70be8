import assert from "node:assert/strict";
import { expectedReadme } from "./support/readme_tables.ts";

/** `deno fmt` aligns table columns and wraps lists; compare the words, not the layout. */
function normalize(markdown: string): string {
  return markdown.replace(/-{3,}/g, "---").replace(/\s+/g, "");
}

Deno.test("README's generated parts (commands, routes, environment, sample answer) are true", async () => {
  const { current, expected } = await expectedReadme();
  assert.ok(
    normalize(current) === normalize(expected),
    "README.md is out of date: run `deno run -A tests/support/readme_tables.ts --write`",
  );
});

Deno.test("README gives the two set-up commands with and without Deno installed", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  for (
    const command of [
      "deno task quarry search",
      "deno task test",
      "npx -y deno@",
      "deno task install",
    ]
  ) {
    assert.ok(readme.includes(command), command);
  }
});
