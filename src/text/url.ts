/**
 * Canonical URLs: one spelling per page, so the same page reached through
 * different links (tracking parameters, fragments, default ports, parameter
 * order, a trailing slash) is fetched, cached and archived once.
 * @module
 */

/** Query parameters that only track the visitor and never change the page. */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  "fbclid",
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "yclid",
  "igshid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "ref_src",
  "ref_url",
  "_hsenc",
  "_hsmi",
  "_ga",
  "_gl",
  "mkt_tok",
  "oly_anon_id",
  "oly_enc_id",
  "vero_id",
  "vero_conv",
  "s_cid",
  "__s",
  "wt_mc",
  "rb_clickid",
]);

/** Prefixes of tracking parameter families (`utm_source`, `mc_cid`, …). */
export const TRACKING_PREFIXES: readonly string[] = ["utm_", "mc_", "pk_", "hsa_", "itm_"];

/** Schemes whose path is hierarchical, where the trailing-slash rule applies. */
const HIERARCHICAL = new Set(["http:", "https:", "ftp:", "file:"]);

function isTracking(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMS.has(lower) || TRACKING_PREFIXES.some((p) => lower.startsWith(p));
}

/**
 * The canonical spelling of a URL: scheme and host lower-cased, default port,
 * credentials and fragment dropped, tracking parameters removed, remaining
 * parameters sorted by name (then value), and no trailing slash on any path
 * but the root (`https://a.org/docs/` → `https://a.org/docs`,
 * `https://a.org` → `https://a.org/`). Text that is not an absolute URL is
 * returned trimmed and unchanged, so callers never need a try/catch.
 *
 * @example
 * ```ts
 * canonicalUrl("HTTPS://Example.com:443/a/?utm_source=x&b=2&a=1#top");
 * // "https://example.com/a?a=1&b=2"
 * ```
 */
export function canonicalUrl(url: string): string {
  const text = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return text;
  }
  parsed.hash = "";
  parsed.username = "";
  parsed.password = "";
  const kept = [...parsed.searchParams].filter(([name]) => !isTracking(name));
  kept.sort(([a, av], [b, bv]) => a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0);
  parsed.search = kept.length === 0 ? "" : new URLSearchParams(kept).toString();
  if (HIERARCHICAL.has(parsed.protocol) && parsed.pathname.length > 1) {
    parsed.pathname = parsed.pathname.replace(/\/+$/, "") || "/";
  }
  return parsed.href;
}
