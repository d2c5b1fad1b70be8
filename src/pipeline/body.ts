/**
 * Reading a response body under a cap and a shared byte budget. Bytes are
 * read into one buffer that grows by doubling (a BYOB reader), not kept as
 * thousands of chunks: chunks are buffers outside V8's heap that a quiet
 * process may not collect for a long time, so twenty gzip bombs read chunk by
 * chunk left ~640 MB of dead buffers behind (`deno task bench hostile`).
 * @module
 */
import type { ByteBudget } from "./budget.ts";

/** First buffer size; doubled as the body grows. */
const FIRST_BUFFER = 64 * 1024;

/** A body read, or why it was cut. */
export interface CappedBody {
  bytes: Uint8Array;
  /** `true` past the cap (`bytes` holds the first `limit`), `"budget"` past the shared budget. */
  overflow: boolean | "budget";
  /** Bytes taken from the budget; the caller gives them back. */
  held: number;
}

/**
 * Reads a body, stopping (and cancelling the stream) once it passes `limit`
 * or the budget runs out. Bytes are counted after decompression, so a small
 * gzip body that expands is stopped too. On abort every byte taken from the
 * budget is given back and the abort reason is thrown.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  signal: AbortSignal,
  budget?: ByteBudget,
): Promise<CappedBody> {
  if (!body) return { bytes: new Uint8Array(), overflow: false, held: 0 };
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    byob = undefined; // Not a byte stream (an injected fetch): read chunks.
  }
  const reader = byob ?? body.getReader();
  // fetch aborts its body on the signal; cancelling here as well makes sure a
  // stalled read ends even when `deps.fetch` is not the built-in one.
  const stop = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  let buffer = new ArrayBuffer(Math.min(FIRST_BUFFER, limit + 1));
  let size = 0;
  let overflow: boolean | "budget" = false;
  let held = 0;
  try {
    for (;;) {
      if (size === buffer.byteLength) buffer = grown(buffer, size, limit + 1);
      const next = byob
        ? await byob.read(new Uint8Array(buffer, size, buffer.byteLength - size))
        : await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      // A BYOB read hands the buffer back (it was transferred), even at the end.
      if (byob && next.value) buffer = next.value.buffer as ArrayBuffer;
      if (next.value === undefined || next.done && next.value.byteLength === 0) break;
      const n = next.value.byteLength;
      if (budget && !budget.take(n)) {
        overflow = "budget";
        break;
      }
      held += budget ? n : 0;
      if (!byob) buffer = copied(buffer, size, next.value, limit + 1);
      size += n;
      if (size > limit) {
        overflow = true;
        break;
      }
      if (next.done) break;
    }
    if (overflow) await reader.cancel().catch(() => {});
  } catch (error) {
    budget?.give(held);
    throw error;
  } finally {
    signal.removeEventListener("abort", stop);
  }
  // A cancelled read ends as "done": the body is only complete if nothing aborted.
  if (signal.aborted) budget?.give(held);
  signal.throwIfAborted();
  if (overflow === "budget") return { bytes: new Uint8Array(), overflow, held };
  return { bytes: new Uint8Array(buffer, 0, Math.min(size, limit)), overflow, held };
}

/** `buffer` with room to grow (doubled, at most `max`), its first `size` bytes kept. */
function grown(buffer: ArrayBuffer, size: number, max: number): ArrayBuffer {
  const next = new ArrayBuffer(Math.min(max, Math.max(FIRST_BUFFER, buffer.byteLength * 2)));
  new Uint8Array(next).set(new Uint8Array(buffer, 0, size));
  return next;
}

/** Appends `chunk` at `size`, growing the buffer as needed (the chunk-reader path). */
function copied(buffer: ArrayBuffer, size: number, chunk: Uint8Array, max: number): ArrayBuffer {
  let out = buffer;
  while (out.byteLength < Math.min(max, size + chunk.byteLength)) out = grown(out, size, max);
  new Uint8Array(out).set(chunk.subarray(0, out.byteLength - size), size);
  return out;
}
