/**
 * PDFs on the fixture web: `fixtures/pdf/<name>` at `/pdf/<name>`, the
 * documents of `pdf_fixtures.ts` at `/pdf/gen/<kind>.pdf` (`report`,
 * `encrypted`, `corrupt`, `scanned`, `long`), the report as
 * `application/octet-stream`, without a Content-Type and with an ETag
 * (`/pdf/etag/report.pdf`, which answers 304 to its ETag), and a
 * DuckDuckGo-shaped SERP at `/pdfsearch/html/` whose results include PDFs.
 * @module
 */
import type { Route } from "../fixture_web.ts";
import { corruptPdf, encryptedPdf, longPdf, reportPdf, scannedPdf } from "../pdf_fixtures.ts";
import { researchSerp, type SerpEntry } from "./research.ts";

const FIXTURES = new URL("../../../fixtures/pdf/", import.meta.url);
const PDF = { "content-type": "application/pdf" };

const GENERATED: Record<string, () => Uint8Array<ArrayBuffer>> = {
  report: reportPdf,
  encrypted: encryptedPdf,
  corrupt: corruptPdf,
  scanned: scannedPdf,
  long: () => longPdf(40),
};

/** Results of the PDF SERP: a PDF, an HTML page, a PDF served without `.pdf`. */
export const PDF_SERP: readonly SerpEntry[] = [
  {
    path: "/pdf/gen/report.pdf",
    title: "Tidal Energy Field Report (PDF)",
    snippet: "Three seasons of tidal current and turbine measurements; seals and the rotor.",
  },
  {
    path: "/pages/articles/http3.html",
    title: "HTTP/3 explained",
    snippet: "Seals, tidal turbines and QUIC streams.",
  },
  {
    path: "/pdf/report.pdf",
    title: "Tidal Energy Field Report, printed",
    snippet: "The turbine's capacity factor and the seals of Strangford Narrows.",
  },
];

const servePdf: Route = async (req, url) => {
  if (!url.pathname.startsWith("/pdf/")) return undefined;
  const name = decodeURIComponent(url.pathname.slice("/pdf/".length));
  if (name === "etag/report.pdf") {
    const etag = '"report-1"';
    if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304 });
    return new Response(reportPdf(), { headers: { ...PDF, etag } });
  }
  const generated = /^gen\/(\w+)\.pdf$/.exec(name);
  if (generated) {
    const make = GENERATED[generated[1]!];
    return make ? new Response(make(), { headers: PDF }) : new Response("no", { status: 404 });
  }
  if (name === "as-octet-stream") {
    return new Response(reportPdf(), { headers: { "content-type": "application/octet-stream" } });
  }
  if (name === "untyped") {
    const res = new Response(reportPdf());
    res.headers.delete("content-type");
    return res;
  }
  if (name.includes("..") || name.includes("/")) return new Response("bad path", { status: 400 });
  try {
    return new Response(await Deno.readFile(new URL(name, FIXTURES)), { headers: PDF });
  } catch {
    return new Response("no such document", { status: 404 });
  }
};

const servePdfSerp: Route = (req, url, web) => {
  if (url.pathname !== "/pdfsearch/html/" || req.method !== "POST") return undefined;
  return new Response(researchSerp(web.origin, PDF_SERP), {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
};

/** PDF routes in the order they are tried. */
export const pdfRoutes: Route[] = [servePdf, servePdfSerp];
