/**
 * Conformance over the real-world PDFs of `../shared/corpora/pdf/` (pdf.js's
 * own test files): every file gets a status within the time limit, in a
 * worker that is ended when it runs over, and never a crash; ordinary
 * documents come out close in size to `pdftotext`'s reference; encrypted,
 * damaged and scanned files get the statuses the issue names.
 */
import assert from "node:assert/strict";
import type { ExtractResult } from "../../../src/pipeline/types.ts";

const CORPUS = new URL("../../../../shared/corpora/pdf/", import.meta.url);
const WORKER = new URL("../../../src/pipeline/extract/worker.ts", import.meta.url);
/** Per file; the longest file at the page cap below takes about 2 s on an idle core. */
const TIMEOUT_MS = 60_000;
/** Pages read per file: keeps the test short; the bench reads whole files. */
const MAX_PAGES = 60;
/** Ordinary documents must give at least this share of pdftotext's characters. */
const MIN_SHARE = 0.8;

interface Entry {
  file: string;
  category: string;
  pages: number | null;
  pdftotext_chars: number;
}

async function corpus(): Promise<Entry[] | null> {
  try {
    const index = JSON.parse(await Deno.readTextFile(new URL("index.json", CORPUS)));
    return index.files as Entry[];
  } catch {
    return null;
  }
}

/**
 * One worker for the whole corpus (starting one costs about a second),
 * replaced by a fresh one when a file runs over the time limit.
 */
class BoundedExtractor {
  #worker: Worker | null = null;

  async extract(bytes: Uint8Array, url: string): Promise<ExtractResult | "timeout"> {
    const worker = this.#worker ??= new Worker(WORKER, { type: "module" });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const result = await new Promise<ExtractResult | "timeout">((resolve, reject) => {
        timer = setTimeout(() => resolve("timeout"), TIMEOUT_MS);
        worker.onmessage = (e: MessageEvent<{ result?: ExtractResult; error?: string }>) =>
          e.data.result ? resolve(e.data.result) : reject(new Error(e.data.error));
        worker.onerror = (e) => {
          e.preventDefault();
          reject(new Error(e.message));
        };
        worker.postMessage({ id: 0, body: bytes, url, options: { pdfMaxPages: MAX_PAGES } });
      });
      if (result === "timeout") this.close();
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }
}

const nonBlank = (text: string) => text.replace(/\s+/g, "").length;

Deno.test("every PDF of the real-world corpus gets a status in time, without a crash", async (t) => {
  const entries = await corpus();
  if (!entries) {
    console.log("skipped: ../shared/corpora/pdf/ is absent");
    return;
  }
  const extractor = new BoundedExtractor();
  try {
    await steps(t, entries, extractor);
  } finally {
    extractor.close();
  }
});

async function steps(t: Deno.TestContext, entries: Entry[], extractor: BoundedExtractor) {
  for (const entry of entries) {
    await t.step(entry.file, async () => {
      const bytes = await Deno.readFile(new URL(entry.file, CORPUS));
      const result = await extractor.extract(bytes, `https://pdfs.example.org/${entry.file}`);
      assert.notEqual(result, "timeout", `${entry.file} took over ${TIMEOUT_MS} ms`);
      if (result === "timeout") return;
      assert.ok(["ok", "empty", "unreadable"].includes(result.status));
      if (result.status !== "ok") assert.ok(result.reason, "a status other than ok has a reason");
      const { category } = entry;
      if (category === "encrypted (user password)") {
        assert.deepEqual([result.status, result.reason], ["unreadable", "encrypted PDF"]);
      } else if (/^no text layer \((scan|text as image)\)$/.test(category)) {
        assert.equal(result.status, "empty");
      } else if (category === "ordinary text" || category === "multi-column") {
        assert.equal(result.status, "ok");
        const wholeFile = (entry.pages ?? 0) <= MAX_PAGES;
        if (wholeFile) {
          assert.ok(
            nonBlank(result.article.text) >= MIN_SHARE * entry.pdftotext_chars,
            `${nonBlank(result.article.text)} of ${entry.pdftotext_chars} characters`,
          );
        }
      }
      if (entry.file === "REDHAT-1531897-0.pdf") {
        assert.equal(result.status, "unreadable");
        assert.match(result.reason!, /^corrupt PDF: /);
      }
    });
  }
}
