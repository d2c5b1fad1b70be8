/**
 * The SSRF guard of DESIGN §7: only http(s) URLs without credentials, and
 * only hosts whose every address is public. Checked before the first request
 * and again on every redirect hop.
 * @module
 */
import { QuarryError } from "../errors.ts";

/** Resolves a host name to addresses (A and AAAA). */
export type ResolveDns = (host: string) => Promise<string[]>;

const ALLOWED_SCHEMES = new Set(["http:", "https:"]);
/** Dotted-decimal IPv4, the only IPv4 spelling the WHATWG parser leaves in `hostname`. */
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;
/** `localhost` and every name under it are loopback by definition (RFC 6761). */
const LOCALHOST = /(^|\.)localhost$/i;
const LOCALHOST_ADDRESSES = ["127.0.0.1", "::1"];

/** IPv4 ranges that are not the public internet: [first address, prefix length]. */
const PRIVATE_V4: readonly [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network", includes 0.0.0.0
  [0x0a000000, 8], // 10/8 private
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local (cloud metadata lives here)
  [0xac100000, 12], // 172.16/12 private
  [0xc0000000, 24], // 192.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // 192.0.2/24 documentation
  [0xc0586300, 24], // 192.88.99/24 old 6to4 relays
  [0xc0a80000, 16], // 192.168/16 private
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // 198.51.100/24 documentation
  [0xcb007100, 24], // 203.0.113/24 documentation
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, includes 255.255.255.255 broadcast
];

/**
 * Parses an absolute URL that Quarry may fetch.
 *
 * @throws {QuarryError} `BAD_INPUT` for unparsable URLs, schemes other than
 * http(s), and URLs carrying a user name or password.
 * @example
 * ```ts
 * checkUrl("https://example.com/a").hostname; // "example.com"
 * ```
 */
export function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch (cause) {
    throw new QuarryError("BAD_INPUT", `Cannot fetch "${raw}": not a valid URL`, {
      suggestions: ["Pass an absolute URL such as https://example.com/page"],
      cause,
    });
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    throw new QuarryError(
      "BAD_INPUT",
      `Cannot fetch "${raw}": only http(s) URLs are fetched, not ${url.protocol}`,
      { suggestions: ["Pass an http:// or https:// URL"] },
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new QuarryError("BAD_INPUT", `Cannot fetch "${raw}": URLs with credentials are refused`, {
      suggestions: ["Remove the user:password@ part of the URL"],
    });
  }
  return url;
}

function parseV4(ip: string): number | undefined {
  const m = IPV4.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

/** Eight 16-bit groups, or undefined when `ip` is not IPv6. */
function parseV6(ip: string): number[] | undefined {
  let text = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!text.includes(":")) return undefined;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon).includes(".")) {
    // A trailing dotted quad (`::ffff:127.0.0.1`) stands for the last two groups.
    const v4 = parseV4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail.push(v4 >>> 16, v4 & 0xffff);
    text = text.endsWith("::", lastColon + 1)
      ? text.slice(0, lastColon + 1)
      : text.slice(0, lastColon);
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const read = (s: string) => (s === "" ? [] : s.split(":"));
  const head = read(halves[0] ?? "");
  const rest = halves.length === 2 ? read(halves[1] ?? "") : [];
  if (![...head, ...rest].every((g) => IPV6_GROUP.test(g))) return undefined;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined;
  const zeros = new Array<number>(8 - known).fill(0);
  return [...head.map(hex), ...zeros, ...rest.map(hex), ...tail];
}

function hex(group: string): number {
  return parseInt(group, 16);
}

function v4InRanges(n: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => (n >>> (32 - bits)) === (base >>> (32 - bits)));
}

function v4Of(high: number, low: number): number {
  return ((high << 16) | low) >>> 0;
}

function v6IsPrivate(g: number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h1 = 0, h2 = 0] = g;
  const embedded = v4Of(h1, h2);
  // ::/96 (unspecified, loopback, IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped):
  // the address is really the IPv4 one in the last 32 bits.
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0 || f === 0xffff)) {
    return v4InRanges(embedded);
  }
  // NAT64 64:ff9b::/96 reaches the embedded IPv4 address; 64:ff9b:1::/48 is local use.
  if (a === 0x64 && b === 0xff9b) {
    return c === 0 && d === 0 && e === 0 && f === 0 ? v4InRanges(embedded) : true;
  }
  // Only 2000::/3 is global unicast; ULA fc00::/7, link-local fe80::/10,
  // multicast ff00::/8, discard 100::/64 and the rest are all outside it.
  if ((a & 0xe000) !== 0x2000) return true;
  if (a === 0x2002) return v4InRanges(v4Of(b, c)); // 6to4 embeds the IPv4 address
  if (a === 0x2001 && b === 0) {
    // Teredo: server in bits 32–63, client (bit-inverted) in the last 32 bits.
    return v4InRanges(v4Of(c, d)) || v4InRanges(~embedded >>> 0);
  }
  if (a === 0x2001 && (b === 0x0db8 || (b & 0xfff0) === 0x0010 || (b & 0xfff0) === 0x0020)) {
    return true; // documentation 2001:db8::/32, ORCHID 2001:10::/28 and 2001:20::/28
  }
  return a === 0x3fff && (b & 0xf000) === 0; // 3fff::/20 documentation
}

/**
 * Whether an IP address is anything but the public internet: loopback,
 * private, link-local, CGNAT, multicast, unspecified, broadcast,
 * documentation and reserved ranges, IPv6 ULA, and IPv6 forms that embed a
 * private IPv4 address (mapped, compatible, NAT64, 6to4, Teredo).
 * Text that is not an IP address counts as private: the guard fails closed.
 *
 * @example
 * ```ts
 * isPrivateAddress("10.1.2.3"); // true
 * isPrivateAddress("::ffff:7f00:1"); // true
 * isPrivateAddress("93.184.216.34"); // false
 * ```
 */
export function isPrivateAddress(ip: string): boolean {
  const v4 = parseV4(ip.trim());
  if (v4 !== undefined) return v4InRanges(v4);
  const v6 = parseV6(ip.trim());
  return v6 === undefined ? true : v6IsPrivate(v6);
}

/** Outcome of {@linkcode guardHost}. */
export type GuardResult =
  | {
    ok: true;
    /** The checked addresses: connect to one of these, never look the name up again. */
    addresses: string[];
  }
  | {
    ok: false;
    reason: string;
    /** `private_address` when refused, `http_error` when the host does not resolve. */
    status: "private_address" | "http_error";
  };

/**
 * Checks that every address of the URL's host is public. Literal IPs are
 * checked as written (the WHATWG parser has already turned `127.1`,
 * `0x7f000001`, `2130706433` or `0177.0.0.1` into `127.0.0.1`); `localhost`
 * names are refused without asking DNS; other names are resolved and refused
 * when ANY address is private, so a name with one public and one private
 * record cannot slip through.
 *
 * @example
 * ```ts
 * await guardHost(new URL("http://[::1]/"), systemResolveDns); // { ok: false, … }
 * ```
 */
export async function guardHost(url: URL, resolveDns: ResolveDns): Promise<GuardResult> {
  const host = url.hostname.replace(/\.+$/, "");
  const refuse = (why: string): GuardResult => ({
    ok: false,
    status: "private_address",
    reason: `Refused ${url.host}: ${why} is not on the public internet`,
  });
  if (host.startsWith("[")) {
    return isPrivateAddress(host) ? refuse(host) : { ok: true, addresses: [host.slice(1, -1)] };
  }
  if (parseV4(host) !== undefined) {
    return isPrivateAddress(host) ? refuse(host) : { ok: true, addresses: [host] };
  }
  if (LOCALHOST.test(host)) return refuse(`${host} (loopback)`);
  let addresses: string[];
  try {
    addresses = await resolveDns(host);
  } catch {
    return { ok: false, status: "http_error", reason: `Cannot resolve host ${host}` };
  }
  if (addresses.length === 0) {
    return { ok: false, status: "http_error", reason: `Host ${host} has no address` };
  }
  const bad = addresses.find(isPrivateAddress);
  return bad === undefined ? { ok: true, addresses } : refuse(`${host} resolves to ${bad}, which`);
}

/**
 * The addresses of the URL's host, unchecked (private networks allowed):
 * IP literals as written, names through `resolveDns`. Empty when it fails.
 */
export async function addressesOf(url: URL, resolveDns: ResolveDns): Promise<string[]> {
  const host = url.hostname.replace(/\.+$/, "");
  if (host.startsWith("[")) return [host.slice(1, -1)];
  if (parseV4(host) !== undefined) return [host];
  return await resolveDns(host).catch(() => []);
}

/**
 * Resolves A and AAAA records with `Deno.resolveDns`; `localhost` names are
 * loopback without asking DNS, and IP literals resolve to themselves.
 *
 * Fetching connects to the address the guard checked (`pinned.ts`), so a DNS
 * server that answers differently the second time (rebinding) cannot steer a
 * request to a private address.
 */
export async function systemResolveDns(host: string): Promise<string[]> {
  const name = host.replace(/^\[|\]$/g, "").replace(/\.+$/, "");
  if (LOCALHOST.test(name)) return [...LOCALHOST_ADDRESSES];
  if (parseV4(name) !== undefined || parseV6(name) !== undefined) return [name];
  const answers = await Promise.allSettled([
    Deno.resolveDns(name, "A"),
    Deno.resolveDns(name, "AAAA"),
  ]);
  const addresses = answers.flatMap((a) => (a.status === "fulfilled" ? a.value : []));
  const failure = answers.find((a) => a.status === "rejected");
  if (addresses.length === 0 && failure) throw failure.reason;
  return addresses;
}
