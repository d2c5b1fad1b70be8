/**
 * PDFs for tests, written at test time with {@linkcode writePdf}: a small
 * report with running headers, page numbers, a hyphenated line end, a link
 * and metadata; an encrypted one; a corrupt one; one without a text layer;
 * and a long one for the page cap.
 * @module
 */
import { type PdfPage, textLines, writePdf } from "./pdf_writer.ts";

/** Body of each page of the report, by page. */
const REPORT_BODY: string[][] = [
  [
    "Tidal currents in the Strangford Narrows were measured for three",
    "seasons. Each measure-",
    "ment was taken at dawn, in calm weather and in storms alike.",
  ],
  [
    "The turbine reached a capacity factor of 41 percent, well above",
    "the 30 percent assumed when the project was planned.",
  ],
  [
    "Seals changed course about thirty metres before the rotor, and",
    "no collision was recorded in three seasons.",
  ],
  ["Further work will compare a second turbine of another design."],
];
const REPORT_HEADINGS = ["Tidal Energy Field Report", "Results", "Marine life", "Conclusions"];

function reportPage(n: number): PdfPage {
  return {
    lines: [
      { text: "Strangford Tidal Project - Annual Review", y: 760, size: 9 },
      { text: REPORT_HEADINGS[n - 1]!, y: 700, size: n === 1 ? 24 : 16 },
      ...textLines(REPORT_BODY[n - 1]!, 660),
      { text: `Page ${n} of ${REPORT_BODY.length}`, y: 40, size: 9 },
    ],
    links: n === 2 ? [{ url: "https://data.example.org/tidal", rect: [70, 640, 400, 675] }] : [],
  };
}

/** Four pages, headers and footers, a hyphenated word on page 1, a link on page 2. */
export function reportPdf(): Uint8Array<ArrayBuffer> {
  return writePdf(REPORT_BODY.map((_, i) => reportPage(i + 1)), {
    info: {
      Title: "Tidal Energy Field Report",
      Author: "Ada Marsh",
      CreationDate: "D:20240102030405+01'00'",
    },
    lang: "en-GB",
  });
}

/** The report behind an `/Encrypt` dictionary that needs a user password. */
export function encryptedPdf(): Uint8Array<ArrayBuffer> {
  return writePdf([reportPage(1)], { encrypted: true });
}

/** A PDF header followed by junk. */
export function corruptPdf(): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode("%PDF-1.7\nthis is not a PDF body at all\n%%EOF\n");
}

/** Pages with nothing on them but (as a scan would be) no text. */
export function scannedPdf(): Uint8Array<ArrayBuffer> {
  return writePdf([{ lines: [] }, { lines: [] }]);
}

const WORDS = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heath", "inlet"];

/** `pages` pages of different text (the same text on every page would be a running header). */
export function longPdf(pages: number): Uint8Array<ArrayBuffer> {
  return writePdf(
    Array.from({ length: pages }, (_, i) => ({
      lines: [{
        text: `Sheet ${WORDS[i % WORDS.length]} ${WORDS[(i * 4 + 1) % WORDS.length]} ` +
          `${WORDS[(i * 7 + 2) % WORDS.length]} of a long document.`,
        y: 700,
      }],
    })),
  );
}
