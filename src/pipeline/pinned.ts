/**
 * Fetching from the address the guard checked, never from a second DNS
 * lookup (DNS rebinding, DESIGN §7). Deno's `fetch` resolves names itself and
 * takes no resolver, but a custom client can send its connections elsewhere:
 *
 * - `http:` — a client whose `tcp` transport connects to the checked address;
 *   the request line and `Host` still name the host.
 * - `https:` — the `tcp` transport speaks plain HTTP only (Deno 2.9), so the
 *   client goes through a CONNECT proxy on loopback inside this process; the
 *   proxy opens the tunnel to the address pinned for that host and nowhere
 *   else. TLS runs end to end through the tunnel, so SNI and certificate
 *   checks use the host name as usual.
 * @module
 */

/** Fetches `url` connecting to `address` (an IP the guard checked). */
export type PinnedFetch = (url: URL, address: string, init: RequestInit) => Promise<Response>;

/** A pinned fetch and the clients and proxy behind it. */
export interface Connector {
  fetch: PinnedFetch;
  close(): void;
}

/** Options of {@linkcode createConnector}. */
export interface ConnectorOptions {
  /** Extra root certificates (PEM) for `https:` (tests). @default {[]} */
  caCerts?: string[];
}

/** Clients kept for plain-HTTP addresses; the oldest is closed past this. */
const MAX_CLIENTS = 64;
/** Longest CONNECT request head read from a client (ours: a few hundred bytes). */
const MAX_HEAD = 8192;
const CONNECT_RE = /^CONNECT ([^\s]+) HTTP\/1\.[01]\r\n/;

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}

/** `[::1]` → `::1`: sockets take bare addresses. */
function bare(address: string): string {
  return address.replace(/^\[|\]$/g, "");
}

/**
 * Starts a connector. Nothing listens until the first `https:` fetch.
 *
 * @example
 * ```ts
 * const connector = createConnector();
 * const res = await connector.fetch(new URL("http://example.com/"), "93.184.215.14", {});
 * connector.close();
 * ```
 */
export function createConnector(options: ConnectorOptions = {}): Connector {
  const caCerts = options.caCerts ?? [];
  const plain = new Map<string, Deno.HttpClient>();
  /** `host:port` → the address its tunnel must go to. */
  const pins = new Map<string, string>();
  let tunnel: { client: Deno.HttpClient; listener: Deno.Listener } | undefined;

  const plainClient = (address: string, port: number): Deno.HttpClient => {
    const key = `${address}|${port}`;
    let client = plain.get(key);
    if (client) {
      plain.delete(key); // Re-inserted below: the map's order is least recently used first.
    } else {
      client = Deno.createHttpClient({
        proxy: { transport: "tcp", hostname: bare(address), port },
      });
    }
    plain.set(key, client);
    if (plain.size > MAX_CLIENTS) {
      const [oldKey, oldest] = plain.entries().next().value!;
      plain.delete(oldKey);
      oldest.close();
    }
    return client;
  };

  const tunnelClient = (): Deno.HttpClient => {
    if (tunnel) return tunnel.client;
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const { port } = listener.addr as Deno.NetAddr;
    const client = Deno.createHttpClient({ caCerts, proxy: { url: `http://127.0.0.1:${port}` } });
    tunnel = { client, listener };
    void serveTunnels(listener, pins);
    return client;
  };

  return {
    fetch(url, address, init) {
      if (url.protocol === "https:") {
        pins.set(`${url.hostname}:${portOf(url)}`, bare(address));
        return fetch(url, { ...init, client: tunnelClient() });
      }
      return fetch(url, { ...init, client: plainClient(address, portOf(url)) });
    },
    close() {
      for (const client of plain.values()) client.close();
      plain.clear();
      if (tunnel) {
        tunnel.client.close();
        tunnel.listener.close();
        tunnel = undefined;
      }
    },
  };
}

/** Accepts CONNECT requests until the listener closes. */
async function serveTunnels(listener: Deno.Listener, pins: Map<string, string>): Promise<void> {
  try {
    for await (const conn of listener) void openTunnel(conn, pins).catch(() => conn.close());
  } catch {
    // Listener closed.
  }
}

/** Reads the CONNECT head; tunnels to the pinned address, or refuses. */
async function openTunnel(conn: Deno.Conn, pins: Map<string, string>): Promise<void> {
  const head = await readHead(conn);
  const target = head === undefined ? undefined : CONNECT_RE.exec(head)?.[1];
  const address = target === undefined ? undefined : pins.get(target);
  if (target === undefined || address === undefined) {
    await conn.write(new TextEncoder().encode("HTTP/1.1 403 Forbidden\r\n\r\n"));
    conn.close();
    return;
  }
  const port = Number(target.slice(target.lastIndexOf(":") + 1));
  let upstream: Deno.Conn;
  try {
    upstream = await Deno.connect({ hostname: address, port });
  } catch {
    await conn.write(new TextEncoder().encode("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
    conn.close();
    return;
  }
  await conn.write(new TextEncoder().encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
  await Promise.allSettled([
    conn.readable.pipeTo(upstream.writable),
    upstream.readable.pipeTo(conn.writable),
  ]);
}

/** Reads up to the blank line ending a request head (the client waits for our answer). */
async function readHead(conn: Deno.Conn): Promise<string | undefined> {
  const buffer = new Uint8Array(MAX_HEAD);
  let length = 0;
  while (length < MAX_HEAD) {
    const n = await conn.read(buffer.subarray(length));
    if (n === null) return undefined;
    length += n;
    const text = new TextDecoder().decode(buffer.subarray(0, length));
    if (text.includes("\r\n\r\n")) return text;
  }
  return undefined;
}
