/**
 * Extraction in a pool of workers, each page bounded in time. Parsing a page
 * (DOM, Readability, Markdown) is synchronous work of tens of milliseconds
 * that a hostile page can stretch without end; in a worker it neither stops
 * the event loop (see `bench/suite_http.ts`) nor outlives its time: a worker
 * that overruns is terminated, its page comes back `unreadable`, and a fresh
 * worker takes the next page. Workers start only when a page needs one, so a
 * command that reads nothing pays nothing.
 * @module
 */
import type { ExtractOptions } from "./mod.ts";
import type { ExtractJob } from "./worker.ts";
import { emptyArticle, type ExtractResult } from "../types.ts";

/** How one call may be cut short. */
export interface ExtractCall {
  /** Gives the page up (client gone, shutdown): its worker is stopped if busy with it. */
  signal?: AbortSignal | undefined;
  /** This page's time bound (the operation's `--timeout`); the pool's when unset. */
  timeoutMs?: number | undefined;
}

/** Extraction that may run elsewhere. */
export type ExtractFn = (
  /** Decoded text, or the bytes of a PDF. */
  body: string | Uint8Array,
  url: string,
  options: ExtractOptions,
  call?: ExtractCall,
) => Promise<ExtractResult>;

/** Size and bounds of the pool. */
export interface ExtractPoolConfig {
  /** Workers, started on first use. */
  size: number;
  /** Module the workers run (tests point it elsewhere to check the inline fallback). */
  workerUrl: URL;
  /**
   * A page's extraction, waiting for a free worker included, ends within
   * this (a worker still busy with it is stopped). The clock starts once a
   * worker has loaded: loading one is not the page's time.
   */
  timeoutMs: number;
}

/** Leave a core for the event loop; more than four workers rarely pays for their memory. */
export const DEFAULT_EXTRACT_POOL_CONFIG: Readonly<ExtractPoolConfig> = Object.freeze({
  // Two at least: one page that runs to its time limit must not hold up every other.
  size: Math.max(2, Math.min(4, (navigator.hardwareConcurrency ?? 2) - 1)),
  workerUrl: new URL("./worker.ts", import.meta.url),
  timeoutMs: 10_000,
});

/** A running pool. */
export interface ExtractPool {
  extract: ExtractFn;
  /** Ends the workers; pages in flight come back `unreadable`, later calls extract inline. */
  close(): void;
}

/** After a page this long (characters), its worker is replaced rather than reused. */
const RECYCLE_CHARS = 1_000_000;

type Reply = { id: number; result?: ExtractResult; error?: string } | { ready: true };

interface Job {
  id: number;
  message: ExtractJob;
  settle: (result: ExtractResult) => void;
  /** Runs the job on this thread (the worker module cannot load). */
  inline: () => void;
  /** Starts the job's clock (once a worker is ready: loading one is not the page's time). */
  arm: () => void;
  armed: boolean;
  worker?: Slot | undefined;
}

interface Slot {
  worker: Worker;
  job?: Job | undefined;
  /** Its module has loaded: a later error is a crash, not a module that cannot load. */
  ready: boolean;
}

/** A page given up before its extraction ended. */
export function unreadable(reason: string): ExtractResult {
  return {
    status: "unreadable",
    reason,
    extractor: "fallback",
    article: emptyArticle(),
  };
}

/** Extraction on this thread; loaded only when needed, so start-up does not pay for the parser. */
async function inlineExtract(body: string | Uint8Array, url: string, options: ExtractOptions) {
  const { extractBody } = await import("./mod.ts");
  return await extractBody(body, url, options);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}

/**
 * Starts a pool. A worker module that cannot load (e.g. a compiled binary
 * built without it) makes the pool extract inline instead of failing.
 */
export function createExtractPool(config: Partial<ExtractPoolConfig> = {}): ExtractPool {
  const { size, workerUrl } = { ...DEFAULT_EXTRACT_POOL_CONFIG, ...config };
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 0;
  let broken = false;
  let closed = false;

  const retire = (slot: Slot) => {
    slot.worker.terminate();
    slots.splice(slots.indexOf(slot), 1);
  };

  const finish = (job: Job, result: ExtractResult) => {
    const slot = job.worker;
    if (slot?.job === job) {
      slot.job = undefined;
      // A heap grown for a huge page stays grown: a fresh worker gives the memory back.
      if (job.message.body.length > RECYCLE_CHARS) retire(slot);
    }
    const queued = queue.indexOf(job);
    if (queued !== -1) queue.splice(queued, 1);
    job.settle(result);
    dispatch();
  };

  const breakPool = () => {
    // The module cannot load: jobs run inline from now on.
    broken = true;
    for (const slot of [...slots]) {
      const job = slot.job;
      retire(slot);
      job?.inline();
    }
    for (const job of queue.splice(0)) job.inline();
  };

  const spawn = (): Slot => {
    const slot: Slot = { worker: new Worker(workerUrl, { type: "module" }), ready: false };
    slot.worker.onmessage = (event: MessageEvent<Reply>) => {
      const job = slot.job;
      if ("ready" in event.data) {
        slot.ready = true;
        for (const waiting of queue) waiting.arm();
        return dispatch();
      }
      if (!job || job.id !== event.data.id) return;
      const { result, error } = event.data;
      finish(job, result ?? unreadable(`the extractor failed: ${error ?? "no answer"}`));
    };
    slot.worker.onerror = (event) => {
      event.preventDefault();
      if (!slot.ready) return breakPool();
      const job = slot.job;
      retire(slot);
      if (job) finish(job, unreadable(`the extraction worker crashed: ${event.message}`));
      else dispatch();
    };
    slots.push(slot);
    return slot;
  };

  const dispatch = () => {
    while (queue.length > 0 && !broken && !closed) {
      const slot = slots.find((s) => s.ready && !s.job);
      if (!slot) {
        // Start workers for the waiting pages; they take pages once loaded.
        let loading = slots.filter((s) => !s.ready).length;
        while (slots.length < size && loading < queue.length) {
          spawn();
          loading++;
        }
        return;
      }
      const job = queue.shift()!;
      slot.job = job;
      job.worker = slot;
      slot.worker.postMessage(job.message);
    }
  };

  /** Gives a job up: a worker busy with it is stopped and replaced on demand. */
  const abandon = (job: Job, reason: string) => {
    const slot = job.worker;
    if (slot && slot.job === job) {
      retire(slot);
      job.worker = undefined;
    }
    finish(job, unreadable(reason));
  };

  return {
    extract(body, url, options, call = {}) {
      if (broken || closed) return inlineExtract(body, url, options);
      if (call.signal?.aborted) return Promise.resolve(unreadable("the read was cancelled"));
      const runMs = call.timeoutMs ?? config.timeoutMs ?? DEFAULT_EXTRACT_POOL_CONFIG.timeoutMs;
      return new Promise((resolve, reject) => {
        const id = nextId++;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const cleanup = () => {
          clearTimeout(timer);
          call.signal?.removeEventListener("abort", onAbort);
        };
        const job: Job = {
          id,
          message: { id, body, url, options },
          settle: (result) => {
            cleanup();
            resolve(result);
          },
          inline: () => {
            cleanup();
            inlineExtract(body, url, options).then(resolve, reject);
          },
          armed: false,
          arm: () => {
            if (job.armed) return;
            job.armed = true;
            timer = setTimeout(() => {
              const why = job.worker
                ? `extraction took longer than ${seconds(runMs)}`
                : `no extraction worker was free within ${seconds(runMs)}`;
              abandon(job, why);
            }, runMs);
          },
        };
        const onAbort = () => abandon(job, "the read was cancelled");
        call.signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(job);
        if (slots.some((s) => s.ready)) job.arm();
        dispatch();
      });
    },
    close() {
      closed = true;
      for (const job of queue.splice(0)) job.settle(unreadable("the server is stopping"));
      for (const slot of [...slots]) {
        const job = slot.job;
        retire(slot);
        job?.settle(unreadable("the server is stopping"));
      }
    },
  };
}
