import assert from "node:assert/strict";
import { extractPdf, isPdfBytes } from "../../../src/pipeline/extract/pdf.ts";
import { extractBody } from "../../../src/pipeline/extract/mod.ts";
import { pdfDate, readPdfMetadata } from "../../../src/pipeline/extract/pdf_meta.ts";
import { rankExcerpts } from "../../../src/pipeline/rank/excerpts.ts";
import {
  corruptPdf,
  encryptedPdf,
  longPdf,
  reportPdf,
  scannedPdf,
} from "../../support/pdf_fixtures.ts";

const URL_OF = "https://reports.example.org/files/tidal.pdf";
const CHROMIUM_REPORT = new URL("../../../fixtures/pdf/report.pdf", import.meta.url);

Deno.test("extractPdf() keeps page numbers on blocks and reads the metadata", async () => {
  const result = await extractPdf(reportPdf(), URL_OF);
  assert.equal(result.status, "ok", result.reason);
  assert.equal(result.extractor, "pdf");
  const { article } = result;
  assert.equal(article.title, "Tidal Energy Field Report");
  assert.equal(article.byline, "Ada Marsh");
  assert.equal(article.site, "reports.example.org");
  assert.equal(article.lang, "en-GB");
  assert.equal(article.published, "2024-01-02T02:04:05.000Z");
  assert.deepEqual(article.blocks.map((b) => [b.type, b.page]), [
    ["heading", 1],
    ["p", 1],
    ["heading", 2],
    ["p", 2],
    ["heading", 3],
    ["p", 3],
    ["heading", 4],
    ["p", 4],
  ]);
  assert.equal(article.blocks[0]!.level, 1);
  assert.equal(article.blocks[2]!.level, 2);
  assert.match(article.markdown, /<!-- page 3 -->\n\n## Marine life/);
  assert.equal(article.text.split("\f").length, 4, "pages separated by form feeds");
});

Deno.test("extractPdf() joins a word hyphenated at a line end", async () => {
  const { article } = await extractPdf(reportPdf(), URL_OF);
  assert.match(article.text, /Each measurement was taken at dawn/);
  assert.doesNotMatch(article.text, /measure-/);
});

Deno.test("extractPdf() drops running headers and page numbers", async () => {
  const { article } = await extractPdf(reportPdf(), URL_OF);
  assert.doesNotMatch(article.text, /Annual Review/);
  assert.doesNotMatch(article.text, /Page \d of 4/);
});

Deno.test("extractPdf() drops Chromium's print header and footer lines", async () => {
  const { status, article } = await extractPdf(await Deno.readFile(CHROMIUM_REPORT), URL_OF);
  assert.equal(status, "ok");
  assert.equal(article.title, "Tidal Energy Field Report");
  assert.doesNotMatch(article.text, /file:\/\/|\d\/3$|PM/m);
  assert.equal(article.blocks.find((b) => b.text === "Conclusions")?.page, 3);
  assert.deepEqual(article.links, [{
    url: "https://data.example.org/tidal/strangford",
    text: "the project's data portal",
  }]);
});

Deno.test("extractPdf() reads web links from link annotations with the text under them", async () => {
  const { article } = await extractPdf(reportPdf(), URL_OF);
  assert.equal(article.links.length, 1);
  assert.equal(article.links[0]!.url, "https://data.example.org/tidal");
  assert.match(article.links[0]!.text, /capacity factor/);
});

Deno.test("extractPdf() says a PDF that needs a password is an encrypted PDF", async () => {
  const result = await extractPdf(encryptedPdf(), URL_OF);
  assert.equal(result.status, "unreadable");
  assert.equal(result.reason, "encrypted PDF");
});

Deno.test("extractPdf() gives pdf.js's reason for a corrupt PDF", async () => {
  const result = await extractPdf(corruptPdf(), URL_OF);
  assert.equal(result.status, "unreadable");
  assert.match(result.reason ?? "", /^corrupt PDF: Invalid PDF structure/);
});

Deno.test("extractPdf() calls pages without text a missing text layer", async () => {
  const result = await extractPdf(scannedPdf(), URL_OF);
  assert.equal(result.status, "empty");
  assert.equal(result.reason, "no text layer (scanned pages?)");
});

Deno.test("extractPdf() reads at most maxPages pages and says so", async () => {
  const result = await extractPdf(longPdf(12), URL_OF, { maxPages: 5 });
  assert.equal(result.status, "ok");
  assert.equal(result.reason, "read the first 5 of 12 pages (page cap 5)");
  assert.deepEqual([...new Set(result.article.blocks.map((b) => b.page))], [1, 2, 3, 4, 5]);
});

Deno.test("extractBody() sends bytes to the PDF extractor and the page cap with them", async () => {
  const result = await extractBody(longPdf(4), URL_OF, { pdfMaxPages: 2 });
  assert.equal(result.extractor, "pdf");
  assert.match(result.reason ?? "", /first 2 of 4/);
});

Deno.test("rankExcerpts() says which page of a PDF each excerpt comes from", async () => {
  const { article } = await extractPdf(reportPdf(), URL_OF);
  const excerpts = rankExcerpts(article.blocks, "did seals collide with the rotor", {
    mode: "strict",
    budgetChars: 200,
  });
  assert.equal(excerpts[0]?.page, 3);
  assert.match(excerpts[0]!.text, /Seals changed course/);
});

Deno.test("isPdfBytes() finds the PDF header within the first KiB only", () => {
  const enc = new TextEncoder();
  assert.equal(isPdfBytes(enc.encode("%PDF-1.4\n")), true);
  assert.equal(isPdfBytes(enc.encode("junk".repeat(10) + "%PDF-1.4")), true);
  assert.equal(isPdfBytes(enc.encode("x".repeat(1100) + "%PDF-1.4")), false);
  assert.equal(isPdfBytes(enc.encode("<html>")), false);
});

Deno.test("pdfDate() reads PDF dates with and without time zones, and ISO dates", () => {
  assert.equal(pdfDate("D:20100316021332-01'00'"), "2010-03-16T03:13:32.000Z");
  assert.equal(pdfDate("D:2013"), "2013-01-01T00:00:00.000Z");
  assert.equal(pdfDate("2020-05-01T10:00:00Z"), "2020-05-01T10:00:00.000Z");
  assert.equal(pdfDate("yesterday"), null);
});

Deno.test("readPdfMetadata() prefers XMP, drops file-name titles and junk authors", () => {
  const xmp = new Map<string, unknown>([["dc:title", "From XMP"], ["dc:language", "de"]]);
  const meta = readPdfMetadata({
    info: { Title: "Info title", Author: "ARRAY(0x2c7cf020)", Language: "en" },
    metadata: { get: (k) => xmp.get(k) ?? null },
  });
  assert.deepEqual(meta, { title: "From XMP", byline: null, published: null, lang: "de" });
  const plain = readPdfMetadata({
    info: { Title: "Microsoft Word - draft3.docx" },
    metadata: null,
  });
  assert.equal(plain.title, null);
});

Deno.test("the extraction pool reads a PDF in a worker exactly as inline", async () => {
  const { createExtractPool } = await import("../../../src/pipeline/extract/pool.ts");
  const pool = createExtractPool({ size: 1 });
  try {
    const bytes = reportPdf();
    const [inWorker, inline] = await Promise.all([
      pool.extract(bytes, URL_OF, {}),
      extractPdf(bytes, URL_OF),
    ]);
    assert.equal(inWorker.extractor, "pdf");
    assert.deepEqual(inWorker, inline);
  } finally {
    pool.close();
  }
});
