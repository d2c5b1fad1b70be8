/**
 * A worker that runs {@linkcode extract} off the main thread, so a server
 * keeps answering while pages are parsed. Messages: `{id, body, url,
 * options}` in, `{id, result}` or `{id, error}` out.
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { extractBody, type ExtractOptions } from "./mod.ts";

/** One extraction asked of the worker. */
export interface ExtractJob {
  id: number;
  body: string | Uint8Array;
  url: string;
  options: ExtractOptions;
}

self.onmessage = async (event: MessageEvent<ExtractJob>) => {
  const { id, body, url, options } = event.data;
  try {
    self.postMessage({ id, result: await extractBody(body, url, options) });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
