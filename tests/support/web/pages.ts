/**
 * Pages from `fixtures/pages/` under `/pages/…`, and faults on demand under
 * `/fault/…`.
 * @module
 */
import type { Route } from "../fixture_web.ts";

const FIXTURES = new URL("../../../fixtures/pages/", import.meta.url);

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  png: "image/png",
};

/** Serves `fixtures/pages/<name>` at `/pages/<name>`. */
const servePage: Route = async (_req, url) => {
  if (!url.pathname.startsWith("/pages/")) return undefined;
  const name = decodeURIComponent(url.pathname.slice("/pages/".length));
  if (name.includes("..")) return new Response("bad path", { status: 400 });
  try {
    const body = await Deno.readFile(new URL(name, FIXTURES));
    const ext = name.split(".").pop() ?? "";
    return new Response(body, {
      headers: { "content-type": TYPES[ext] ?? "application/octet-stream" },
    });
  } catch {
    return new Response("no such page", { status: 404 });
  }
};

/** Page routes in the order they are tried. */
export const pageRoutes: Route[] = [servePage];
