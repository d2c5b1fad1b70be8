import assert from "node:assert/strict";
import { QuarryError } from "../../../src/errors.ts";
import { extract } from "../../../src/pipeline/extract/mod.ts";
import { indexFolders } from "../../../src/store/archive/indexer.ts";
import { isHidden, looksBinary } from "../../../src/store/archive/indexer_paths.ts";
import { tempArchive } from "./helpers.ts";

const NOW = Date.parse("2025-03-01T12:00:00Z");
const extractHtml = (html: string, url: string) => extract(html, url).article;

async function mkfifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(out.code, 0, "mkfifo");
}

async function rejectsWith(promise: Promise<unknown>, code: string, pattern: RegExp) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof QuarryError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("indexFolders() refuses devices, FIFOs and links to them with BAD_INPUT naming the path", async () => {
  const t = await tempArchive();
  const dir = await Deno.makeTempDir({ prefix: "quarry_index_paths_" });
  try {
    const deps = { archive: t.archive, extractHtml, now: () => NOW };
    await rejectsWith(indexFolders(["/dev/zero"], deps), "BAD_INPUT", /"\/dev\/zero"/);
    await mkfifo(`${dir}/x.md`);
    await rejectsWith(indexFolders([`${dir}/x.md`], deps), "BAD_INPUT", /x\.md.*regular file/);
    await Deno.symlink("/dev/zero", `${dir}/zero.md`);
    await rejectsWith(indexFolders([`${dir}/zero.md`], deps), "BAD_INPUT", /zero\.md/);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("indexFolders() skips FIFOs, binary files and dot-files in a folder, saying why", async () => {
  const t = await tempArchive();
  const dir = await Deno.makeTempDir({ prefix: "quarry_index_paths_" });
  try {
    await mkfifo(`${dir}/pipe.md`);
    await Deno.writeFile(`${dir}/photo.md`, new Uint8Array([0xff, 0xd8, 0xff, 0, 1, 2, 3]));
    await Deno.writeTextFile(`${dir}/.env.md`, "SECRET=1");
    await Deno.writeTextFile(`${dir}/note.md`, "# Note\n\nTides follow the moon.");
    const deps = { archive: t.archive, extractHtml, now: () => NOW };
    const counts = await indexFolders([dir], deps);
    assert.equal(counts.added, 1);
    const reasons = Object.fromEntries(
      counts.skippedFiles.map((s) => [s.path.split("/").pop(), s.reason]),
    );
    assert.deepEqual(reasons, { "pipe.md": "not a regular file", "photo.md": "binary content" });
    assert.equal(counts.skipped, 2);
    // A hidden file named directly is skipped too.
    const named = await indexFolders([`${dir}/.env.md`], deps);
    assert.equal(named.added, 0);
    assert.match(named.skippedFiles[0]?.reason ?? "", /hidden/);
    // --force re-reads every file.
    const forced = await indexFolders([dir], deps, { force: true });
    assert.equal(forced.unchanged + forced.updated, 1);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("indexFolders() with roots refuses folders outside them with PERMISSION_DENIED", async () => {
  const t = await tempArchive();
  const dir = await Deno.makeTempDir({ prefix: "quarry_index_paths_" });
  try {
    await Deno.mkdir(`${dir}/notes`);
    await Deno.writeTextFile(`${dir}/notes/a.md`, "# A\n\nSome words about rivers.");
    const deps = { archive: t.archive, extractHtml, now: () => NOW };
    await rejectsWith(
      indexFolders(["/etc"], deps, { roots: [`${dir}/notes`] }),
      "PERMISSION_DENIED",
      /outside the index roots/,
    );
    await rejectsWith(indexFolders([dir], deps, { roots: [] }), "PERMISSION_DENIED", /roots/);
    // A link inside a root that leads out of it is judged by where it leads.
    await Deno.symlink("/etc", `${dir}/notes/etc`);
    await rejectsWith(
      indexFolders([`${dir}/notes/etc`], deps, { roots: [`${dir}/notes`] }),
      "PERMISSION_DENIED",
      /etc/,
    );
    const ok = await indexFolders([`${dir}/notes`], deps, { roots: [`${dir}/notes`] });
    assert.equal(ok.added, 1);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("looksBinary() tells text (any script) from binary", () => {
  const enc = new TextEncoder();
  assert.equal(looksBinary(enc.encode("# Héllo wörld — 日本語\n")), false);
  assert.equal(looksBinary(new Uint8Array([0x50, 0x4b, 3, 4, 0])), true);
  assert.equal(looksBinary(new Uint8Array([0xc3, 0x28, 0x41])), true);
  // A multi-byte character cut by the sniff window is not binary.
  const long = enc.encode("a".repeat(8191) + "é");
  assert.equal(looksBinary(long), false);
});

Deno.test("isHidden() sees dot segments anywhere in a path", () => {
  assert.equal(isHidden("/home/u/.ssh/id.md"), true);
  assert.equal(isHidden("/home/u/notes/.env.md"), true);
  assert.equal(isHidden("/home/u/notes/a.md"), false);
});
