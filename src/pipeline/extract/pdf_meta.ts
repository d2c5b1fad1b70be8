/**
 * PDF metadata: the document information dictionary and the XMP packet →
 * title, byline, published date and language. XMP wins where both have a
 * value, since writers update it and often leave the info dictionary stale.
 * @module
 */

/** What pdf.js's `getMetadata()` returns, as far as this stage reads it. */
export interface PdfMetadataSource {
  info: Record<string, unknown>;
  metadata: { get(name: string): unknown } | null;
}

/** Metadata of a PDF; `null` where the document says nothing. */
export interface PdfMetadata {
  title: string | null;
  byline: string | null;
  published: string | null;
  lang: string | null;
}

/** Titles that name the file or the tool rather than the document. */
const USELESS_TITLE =
  /^(?:untitled|document\d*|title|slide \d+|microsoft (?:word|powerpoint) - .*)$|\.(?:docx?|pdf|tex|dvi|indd|pptx?|rtf|odt)$/i;
/** `D:YYYYMMDDHHmmSSOHH'mm'` (PDF 32000-1 §7.9.4); every part after the year optional. */
const PDF_DATE =
  /^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(\d{2})?'?(\d{2})?'?)?/;
/** Values some writers leave in the info dictionary by mistake (a Perl array's address). */
const JUNK = /^(?:ARRAY|HASH|SCALAR)\(0x[0-9a-f]+\)$/i;
/** XMP dates: ISO 8601, which the PDF pattern would misread ("2020-05" as a zone). */
const ISO_DATE = /^\d{4}-\d{2}/;
const LANG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;

function text(value: unknown): string | null {
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value !== "string") return null;
  const s = value.replace(/\s+/g, " ").trim();
  return s === "" || JUNK.test(s) ? null : s;
}

/** A title worth showing, or `null`. */
export function usefulTitle(value: unknown): string | null {
  const s = text(value);
  return s && !USELESS_TITLE.test(s) ? s : null;
}

/**
 * A PDF date string as ISO 8601, or `null` when it does not parse.
 *
 * @example
 * ```ts
 * pdfDate("D:20100316021332-01'00'"); // "2010-03-16T03:13:32.000Z"
 * ```
 */
export function pdfDate(value: unknown): string | null {
  const s = text(value);
  if (!s) return null;
  const m = ISO_DATE.test(s) ? null : PDF_DATE.exec(s);
  if (!m) {
    const ms = Date.parse(s); // XMP dates are ISO 8601 already.
    return Number.isNaN(ms) ? null : new Date(ms).toISOString();
  }
  const [, y, mo = "01", d = "01", h = "00", mi = "00", sec = "00", sign, oh = "00", om = "00"] = m;
  const zone = !sign || sign.toUpperCase() === "Z" ? "Z" : `${sign}${oh}:${om}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}${zone}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Reads title, author, date and language from the info dictionary and XMP. */
export function readPdfMetadata(source: PdfMetadataSource): PdfMetadata {
  const xmp = (name: string) => source.metadata?.get(name) ?? null;
  const { info } = source;
  const lang = text(xmp("dc:language")) ?? text(info.Language);
  return {
    title: usefulTitle(xmp("dc:title")) ?? usefulTitle(info.Title),
    byline: text(xmp("dc:creator")) ?? text(info.Author),
    published: pdfDate(xmp("xmp:createdate")) ?? pdfDate(info.CreationDate) ??
      pdfDate(info.ModDate),
    lang: lang && LANG.test(lang) ? lang : null,
  };
}
