/**
 * Telling a PDF by its first bytes, apart from the extractor so that fetching
 * does not load pdf.js.
 * @module
 */

/** What a PDF starts with (a few writers put junk before it; pdf.js looks in the first 1 KiB). */
const MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const MAGIC_WINDOW = 1024;

/**
 * Whether bytes are a PDF: `%PDF-` within the first KiB.
 *
 * @example
 * ```ts
 * isPdfBytes(new TextEncoder().encode("%PDF-1.7\n")); // true
 * ```
 */
export function isPdfBytes(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, MAGIC_WINDOW) - MAGIC.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < MAGIC.length; j++) if (bytes[i + j] !== MAGIC[j]) continue outer;
    return true;
  }
  return false;
}
