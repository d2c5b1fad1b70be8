/**
 * Extraction in a pool of workers. Parsing a page (DOM, Readability,
 * Markdown) is synchronous work of tens of milliseconds; a server reading
 * many pages at once would otherwise stop answering for seconds (see
 * `bench/suite_http.ts`). The CLI extracts inline; servers pass
 * `pool.extract` in their context.
 * @module
 */
import { extractBody, type ExtractOptions } from "./mod.ts";
import type { ExtractJob } from "./worker.ts";
import type { ExtractResult } from "../types.ts";

/** Extraction that may run elsewhere. */
export type ExtractFn = (
  /** Decoded text, or the bytes of a PDF. */
  body: string | Uint8Array,
  url: string,
  options: ExtractOptions,
) => Promise<ExtractResult>;

/** Size of the pool. */
export interface ExtractPoolConfig {
  /** Workers, started on first use. */
  size: number;
  /** Module the workers run (tests point it elsewhere to check the inline fallback). */
  workerUrl: URL;
}

/** Leave a core for the event loop; more than four workers rarely pays for their memory. */
export const DEFAULT_EXTRACT_POOL_CONFIG: Readonly<ExtractPoolConfig> = Object.freeze({
  size: Math.max(1, Math.min(4, (navigator.hardwareConcurrency ?? 2) - 1)),
  workerUrl: new URL("./worker.ts", import.meta.url),
});

/** A running pool. */
export interface ExtractPool {
  extract: ExtractFn;
  /** Ends the workers; later calls extract inline. */
  close(): void;
}

type Reply = { id: number; result?: ExtractResult; error?: string };

interface Slot {
  worker: Worker;
  busy: number;
}

/**
 * Starts a pool. A worker that cannot start (e.g. a compiled binary built
 * without the worker module) makes the pool extract inline instead of failing.
 */
export function createExtractPool(config: Partial<ExtractPoolConfig> = {}): ExtractPool {
  const { size, workerUrl } = { ...DEFAULT_EXTRACT_POOL_CONFIG, ...config };
  const slots: Slot[] = [];
  const pending = new Map<number, { resolve: (r: ExtractResult) => void; inline: () => void }>();
  let nextId = 0;
  let broken = false;

  const fail = () => {
    // Jobs in flight are redone inline; later ones never go to a worker.
    broken = true;
    for (const slot of slots) slot.worker.terminate();
    slots.length = 0;
    for (const job of pending.values()) job.inline();
    pending.clear();
  };

  const slot = (): Slot => {
    if (slots.length < size && slots.every((s) => s.busy > 0)) {
      const worker = new Worker(workerUrl, { type: "module" });
      const added: Slot = { worker, busy: 0 };
      worker.onmessage = (event: MessageEvent<Reply>) => {
        const job = pending.get(event.data.id);
        if (!job) return;
        pending.delete(event.data.id);
        added.busy -= 1;
        if (event.data.result) job.resolve(event.data.result);
        else job.inline();
      };
      worker.onerror = (event) => {
        event.preventDefault();
        fail();
      };
      slots.push(added);
    }
    return slots.reduce((a, b) => (b.busy < a.busy ? b : a));
  };

  return {
    extract(body, url, options) {
      if (broken) return extractBody(body, url, options);
      return new Promise((resolve, reject) => {
        const id = nextId++;
        const inline = () => {
          extractBody(body, url, options).then(resolve, reject);
        };
        pending.set(id, { resolve, inline });
        const target = slot();
        target.busy += 1;
        target.worker.postMessage({ id, body, url, options } satisfies ExtractJob);
      });
    },
    close() {
      fail();
    },
  };
}
