/**
 * Finds a page's character encoding the way browsers do (byte order mark,
 * then the Content-Type header, then `<meta>` in the first bytes, then a
 * guess) and decodes it with `TextDecoder`, which knows every WHATWG encoding.
 * @module
 */

/** Where the charset came from, for diagnostics. */
export type CharsetSource = "bom" | "header" | "meta" | "default" | "fallback";

/** A decoded body. */
export interface DecodedBody {
  text: string;
  /** Canonical WHATWG encoding name, e.g. `windows-1252`, `shift_jis`. */
  charset: string;
  source: CharsetSource;
}

/** Browsers look for `<meta charset>` in the first 1024 bytes; pages with long heads need more. */
const META_PRESCAN_BYTES = 4096;
const HEADER_CHARSET = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i;
/** Matches both `<meta charset=x>` and `<meta http-equiv=content-type content="…; charset=x">`. */
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i;
const XML_ENCODING = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i;
/** Media types whose markup may declare its own encoding. */
const MARKUP_TYPE = /html|xml/i;
/** Spellings seen in the wild that the WHATWG label list lacks. */
const ALIASES: Readonly<Record<string, string>> = {
  "windows1252": "windows-1252",
  "win-1252": "windows-1252",
  "cp-1252": "windows-1252",
  "utf_8": "utf-8",
  "eucjp": "euc-jp",
  "euckr": "euc-kr",
  "gb_2312": "gbk",
  "big-5": "big5",
};
const BOMS: readonly [number[], string][] = [
  [[0xef, 0xbb, 0xbf], "utf-8"],
  [[0xff, 0xfe], "utf-16le"],
  [[0xfe, 0xff], "utf-16be"],
];

/**
 * The canonical WHATWG name for a charset label, or `undefined` when no
 * decoder knows it. The "replacement" encoding (ISO-2022-KR and friends)
 * counts as unknown: it would turn the whole page into one U+FFFD.
 *
 * @example
 * ```ts
 * normalizeCharset(" Latin1 "); // "windows-1252"
 * normalizeCharset("SJIS"); // "shift_jis"
 * ```
 */
export function normalizeCharset(label: string): string | undefined {
  const clean = label.trim().replace(/^["']|["']$/g, "").toLowerCase();
  for (const candidate of [clean, ALIASES[clean], clean.replace(/_/g, "-")]) {
    if (!candidate) continue;
    try {
      const encoding = new TextDecoder(candidate).encoding;
      return encoding === "replacement" ? undefined : encoding;
    } catch {
      // not a label: try the next spelling
    }
  }
  return undefined;
}

function bomCharset(bytes: Uint8Array): string | undefined {
  return BOMS.find(([mark]) => mark.every((b, i) => bytes[i] === b))?.[1];
}

/** The charset a `<meta>` tag or XML declaration claims, as the HTML prescan reads it. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, META_PRESCAN_BYTES));
  const label = META_CHARSET.exec(head)?.[1] ?? XML_ENCODING.exec(head)?.[1];
  const charset = label === undefined ? undefined : normalizeCharset(label);
  // A document that could read its own ASCII <meta> is not UTF-16, and
  // x-user-defined means windows-1252 here (HTML spec, "prescan").
  if (charset?.startsWith("utf-16")) return "utf-8";
  return charset === "x-user-defined" ? "windows-1252" : charset;
}

/**
 * The declared charset of a body, or `undefined` when nothing declares one.
 *
 * @example
 * ```ts
 * sniffCharset(new Uint8Array(), "text/html; charset=ISO-8859-1");
 * // { charset: "windows-1252", source: "header" }
 * ```
 */
export function sniffCharset(
  bytes: Uint8Array,
  contentType?: string | null,
): { charset: string; source: Exclude<CharsetSource, "default" | "fallback"> } | undefined {
  const bom = bomCharset(bytes);
  if (bom) return { charset: bom, source: "bom" };
  const headerLabel = contentType ? HEADER_CHARSET.exec(contentType)?.[2] : undefined;
  const header = headerLabel === undefined ? undefined : normalizeCharset(headerLabel);
  if (header) return { charset: header, source: "header" };
  if (contentType && !MARKUP_TYPE.test(contentType.split(";")[0] ?? "")) return undefined;
  const meta = metaCharset(bytes);
  return meta ? { charset: meta, source: "meta" } : undefined;
}

/**
 * Decodes a body. Without any declaration it is read as UTF-8, and when that
 * is not valid UTF-8, as windows-1252, as browsers do for legacy pages.
 *
 * @example
 * ```ts
 * decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9])).text; // "café"
 * ```
 */
export function decodeBody(bytes: Uint8Array, contentType?: string | null): DecodedBody {
  const declared = sniffCharset(bytes, contentType);
  if (declared) {
    return { text: new TextDecoder(declared.charset).decode(bytes), ...declared };
  }
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { text, charset: "utf-8", source: "default" };
  } catch {
    const text = new TextDecoder("windows-1252").decode(bytes);
    return { text, charset: "windows-1252", source: "fallback" };
  }
}
