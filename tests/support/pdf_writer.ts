/**
 * A tiny PDF writer for test fixtures: pages of text lines in Helvetica (one
 * of the 14 standard fonts, so nothing is embedded), link annotations, an
 * info dictionary, a catalog language, and an `/Encrypt` dictionary whose
 * user password is not empty (so a reader must ask for one). Enough to build
 * every case the PDF extractor must handle, at test time, without tools.
 * @module
 */

/** One line of text, placed at `x`, `y` (points from the bottom left). */
export interface PdfLine {
  text: string;
  y: number;
  x?: number;
  size?: number;
}

/** One page. */
export interface PdfPage {
  lines: PdfLine[];
  links?: { url: string; rect: [number, number, number, number] }[];
}

/** Document-wide options. */
export interface PdfOptions {
  /** Info dictionary entries, e.g. `{Title: "…", Author: "…", CreationDate: "D:2024…"}`. */
  info?: Record<string, string>;
  /** `/Lang` of the catalog. */
  lang?: string;
  /** Add an `/Encrypt` dictionary that needs a user password. */
  encrypted?: boolean;
}

function escapeString(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

function content(page: PdfPage): string {
  return page.lines.map((l) =>
    `BT /F1 ${l.size ?? 11} Tf ${l.x ?? 72} ${l.y} Td (${escapeString(l.text)}) Tj ET`
  ).join("\n");
}

const HEX32 = "6e0c3f5a1b2d4c8e9f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e";

/**
 * Writes a PDF. Text is Latin-1 (WinAnsi); enough for tests.
 *
 * @example
 * ```ts
 * const bytes = writePdf([{ lines: [{ text: "Hello", y: 700 }] }], { info: { Title: "Hi" } });
 * ```
 */
export function writePdf(pages: PdfPage[], options: PdfOptions = {}): Uint8Array<ArrayBuffer> {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1; // 1-based object number
  const catalog = add("");
  const tree = add("");
  const font = add(
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  );
  const kids: number[] = [];
  for (const page of pages) {
    const stream = content(page);
    const contents = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    const annots = (page.links ?? []).map((l) =>
      add(
        `<< /Type /Annot /Subtype /Link /Rect [${l.rect.join(" ")}] /Border [0 0 0] ` +
          `/A << /S /URI /URI (${escapeString(l.url)}) >> >>`,
      )
    );
    kids.push(add(
      `<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R ` +
        `/Resources << /Font << /F1 ${font} 0 R >> >>` +
        (annots.length ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(" ")}]` : "") + " >>",
    ));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${tree} 0 R` +
    (options.lang ? ` /Lang (${options.lang})` : "") + " >>";
  objects[tree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] ` +
    `/Count ${kids.length} >>`;
  const info = options.info
    ? add(
      `<< ${
        Object.entries(options.info).map(([k, v]) => `/${k} (${escapeString(v)})`).join(" ")
      } >>`,
    )
    : undefined;
  const encrypt = options.encrypted
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${HEX32}> /U <${HEX32}> /P -44 >>`)
    : undefined;
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R` +
    (info ? ` /Info ${info} 0 R` : "") + (encrypt ? ` /Encrypt ${encrypt} 0 R` : "") +
    ` /ID [<${HEX32.slice(0, 32)}> <${HEX32.slice(0, 32)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  // Latin-1: one byte per character, so the offsets above are byte offsets.
  return Uint8Array.from(out, (c) => c.charCodeAt(0) & 0xff);
}

/** Lines of running text, one per 14 points from the top, for filling pages. */
export function textLines(texts: string[], top = 720): PdfLine[] {
  return texts.map((text, i) => ({ text, y: top - 14 * i }));
}
