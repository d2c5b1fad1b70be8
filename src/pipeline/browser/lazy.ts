/**
 * The browser as a lazily opened resource of the program's context: nothing
 * is imported or connected until the first page needs rendering (start-up
 * stays as fast without a browser as with one), and closing it is a no-op
 * when it was never used.
 * @module
 */
import type { BrowserInfo, BrowserRenderer, RendererOptions } from "../render.ts";
import type { Renderer } from "../render_step.ts";

/** A renderer that opens itself on first use. */
export interface LazyBrowser extends Renderer {
  info(): Promise<BrowserInfo>;
  close(): Promise<void>;
}

/** Wraps {@linkcode RendererOptions} in a renderer that loads `render.ts` on first use. */
export function lazyBrowser(options: RendererOptions): LazyBrowser {
  let opened: Promise<BrowserRenderer> | undefined;
  const open = () => opened ??= import("../render.ts").then((m) => m.openRenderer(options));
  return {
    render: async (url, opts) => await (await open()).render(url, opts),
    info: async () => await (await open()).info(),
    async close() {
      if (opened) await (await opened).close();
    },
  };
}
