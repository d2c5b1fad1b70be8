import assert from "node:assert/strict";
import {
  type Library,
  LIBRARY_ID,
  nameMatch,
  parseContext,
  parseLibraries,
  pickLibrary,
} from "../../../src/pipeline/apis/context7.ts";

const LIBS: Library[] = [
  { id: "/websites/react_dev", title: "React Docs", state: "finalized" },
  { id: "/facebook/react", title: "React", state: "finalized" },
  { id: "/vercel/next.js", title: "Next.js", state: "finalized" },
  { id: "/tailwindlabs/tailwindcss", title: "Tailwind CSS", state: "initial" },
];

Deno.test("nameMatch() ranks same names over containment over typos", () => {
  const react = LIBS[1]!;
  assert.equal(nameMatch("React", react), 3);
  assert.equal(nameMatch("facebook/react", react), 3);
  assert.equal(nameMatch("reactjs", react), 2);
  assert.equal(nameMatch("raect", react), 1);
  assert.equal(nameMatch("reactive-streams", react), 0);
  assert.equal(nameMatch("nextjs", LIBS[2]!), 3);
  assert.equal(nameMatch("next", LIBS[2]!), 2);
  assert.equal(nameMatch("tailwind", LIBS[3]!), 2);
});

Deno.test("pickLibrary() prefers the closest name over the service's order", () => {
  assert.equal(pickLibrary("react", LIBS)?.id, "/facebook/react");
  assert.equal(pickLibrary("next.js", LIBS)?.id, "/vercel/next.js");
  assert.equal(pickLibrary("svelte", LIBS), undefined);
});

Deno.test("LIBRARY_ID accepts Context7 IDs with versions and nothing else", () => {
  for (const id of ["/vercel/next.js", "/vercel/next.js/v14.3.0", "/vercel/next.js@v14"]) {
    assert.ok(LIBRARY_ID.test(id), id);
  }
  for (const name of ["react", "/react", "vercel/next.js"]) assert.ok(!LIBRARY_ID.test(name), name);
});

Deno.test("parseLibraries() keeps results with an id and rejects other shapes", () => {
  assert.deepEqual(parseLibraries({ results: [{ id: "/a/b" }, { title: "no id" }] }), [
    { id: "/a/b", title: "/a/b" },
  ]);
  assert.throws(() => parseLibraries({ libraries: [] }), /unexpected search answer/);
});

Deno.test("parseContext() interleaves code and prose by rank and formats code blocks", () => {
  const snippets = parseContext({
    codeSnippets: [
      {
        codeTitle: "C1",
        codeDescription: "d1",
        codeId: "https://x/1",
        codeList: [{ language: "ts", code: "a()" }],
      },
      { codeTitle: "C2", codeDescription: "d2", codeId: "https://x/2", codeList: [] },
    ],
    infoSnippets: [{ pageId: "https://x/p", breadcrumb: "A > B", content: "prose" }, {
      content: "",
    }],
  });
  assert.deepEqual(snippets.map((s) => s.title), ["C1", "A > B", "C2"]);
  assert.equal(snippets[0]?.content, "d1\n\n```ts\na()\n```");
  assert.equal(snippets[1]?.source_url, "https://x/p");
  assert.throws(() => parseContext("text"), /unexpected context answer/);
});
