/**
 * Which paths folder indexing may read. A device or FIFO named `notes.md`
 * would block or never end a read; a dot-folder holds keys and settings, not
 * notes; a server reads only under the roots it was started with, so a client
 * cannot make it index `/etc` and read it back.
 * @module
 */
import { QuarryError } from "../../errors.ts";

/** Bytes looked at to tell text from binary. */
const SNIFF_BYTES = 8192;
/** Control bytes other than tab, newline, form feed and carriage return. */
const CONTROL = new Set([...Array(32).keys()].filter((b) => ![9, 10, 12, 13].includes(b)));
/** Share of control bytes above which a file is binary. */
const CONTROL_SHARE = 0.1;

/** Whether a segment of `path` is hidden (`.ssh`, `.env.md`). */
export function isHidden(path: string): boolean {
  return path.split("/").some((part) => part.startsWith(".") && part !== "." && part !== "..");
}

/**
 * Whether bytes are binary: a NUL or many control bytes in the first 8 KiB,
 * or text that is not UTF-8. Extensions lie (`photo.jpg` renamed `x.md`).
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  let control = 0;
  for (const b of head) {
    if (b === 0) return true;
    if (CONTROL.has(b)) control++;
  }
  if (head.length > 0 && control / head.length > CONTROL_SHARE) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, lastWhole(head)));
    return false;
  } catch {
    return true;
  }
}

/** End of the last whole UTF-8 character in `head` (the sniff may cut one in two). */
function lastWhole(head: Uint8Array): number {
  const end = head.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = head[end - i]!;
    if ((b & 0xc0) === 0xc0) return end - i; // Lead byte of a character that may be cut.
    if ((b & 0x80) === 0) break;
  }
  return end;
}

/** Whether `path` is `root` or inside it (both real paths). */
export function isUnder(path: string, root: string): boolean {
  const base = root.endsWith("/") ? root : `${root}/`;
  return path === root || path.startsWith(base);
}

/**
 * Refuses a path that is neither a folder nor a regular file (device, FIFO,
 * socket) with `BAD_INPUT` naming it; with `roots` (a server), refuses one
 * outside them with `PERMISSION_DENIED`.
 */
export async function checkIndexPath(
  dir: string,
  real: string,
  info: Deno.FileInfo,
  roots: readonly string[] | undefined,
): Promise<void> {
  if (roots !== undefined) {
    const allowed = await Promise.all(roots.map((r) => Deno.realPath(r).catch(() => undefined)));
    if (!allowed.some((r) => r !== undefined && isUnder(real, r))) {
      throw new QuarryError("PERMISSION_DENIED", `Cannot index "${dir}": outside the index roots`, {
        suggestions: [
          roots.length === 0
            ? "Start the server with --index DIR (or QUARRY_INDEX_ROOTS) to allow indexing over HTTP"
            : `Index under ${roots.join(", ")}, or start the server with --index for this folder`,
        ],
      });
    }
  }
  if (!info.isFile && !info.isDirectory) {
    throw new QuarryError("BAD_INPUT", `Cannot index "${dir}": not a folder or a regular file`, {
      suggestions: ["Name folders of notes or single Markdown, text, HTML or JSON files"],
    });
  }
}
