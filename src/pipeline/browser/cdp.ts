/**
 * A small Chrome DevTools Protocol client over Deno's built-in WebSocket.
 *
 * Why not `puppeteer-core`: its connect mode pulls in ~80 npm packages
 * (chromium-bidi, ws, yargs, proxy agents…) and its `debug` dependency reads
 * every environment variable at import (`Object.keys(process.env)`), which
 * throws under Quarry's scoped `--allow-env=QUARRY_*,…` (checked under Deno
 * 2.9.6). Rendering needs a dozen CDP commands in flattened-session mode;
 * this client is those and nothing else, with `--allow-net` only.
 * @module
 */

/** One CDP event; `sessionId` names the attached target it came from. */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

/** A CDP command's error, as the browser reported it. */
export class CdpError extends Error {
  constructor(method: string, message: string) {
    super(`${method}: ${message}`);
    this.name = "CdpError";
  }
}

interface Pending {
  method: string;
  resolve: (value: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/** One WebSocket to a browser; commands and events for every session go through it. */
export class CdpConnection {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(event: CdpEvent) => void>();
  #nextId = 1;
  #closedReason: Error | undefined;
  /** Settles when the socket closes, for whatever reason. */
  readonly closed: Promise<void>;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    this.closed = new Promise((resolve) => {
      socket.addEventListener("close", () => {
        this.#fail(new Error("the browser connection closed"));
        resolve();
      });
    });
    socket.addEventListener("message", (e) => this.#receive(String(e.data)));
  }

  /** Opens a connection to a `ws://…/devtools/browser/…` URL within `timeoutMs`. */
  static open(wsUrl: string, timeoutMs: number): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl);
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error(`no answer from ${wsUrl} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.addEventListener("open", () => {
        clearTimeout(timer);
        resolve(new CdpConnection(socket));
      }, { once: true });
      socket.addEventListener("error", (e) => {
        clearTimeout(timer);
        reject(new Error((e as ErrorEvent).message || `cannot connect to ${wsUrl}`));
      }, { once: true });
    });
  }

  /** Whether the socket is still open. */
  get isOpen(): boolean {
    return this.#closedReason === undefined;
  }

  /** Sends a command (to a session when `sessionId` is given) and waits for its answer. */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<T> {
    if (this.#closedReason) return Promise.reject(this.#closedReason);
    const id = this.#nextId++;
    const message = sessionId === undefined
      ? { id, method, params }
      : { id, method, params, sessionId };
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { method, resolve: resolve as Pending["resolve"], reject });
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** Listens to every event; returns the function that stops listening. */
  on(listener: (event: CdpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the socket; pending commands fail. */
  close(): Promise<void> {
    if (this.#socket.readyState < WebSocket.CLOSING) this.#socket.close();
    return this.closed;
  }

  #receive(text: string): void {
    let message: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
      result?: Record<string, unknown>;
      error?: { message?: string };
    };
    try {
      message = JSON.parse(text);
    } catch {
      return; // Not CDP: nothing waits for it.
    }
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error) {
        pending.reject(new CdpError(pending.method, message.error.message ?? "failed"));
      } else pending.resolve(message.result ?? {});
      return;
    }
    if (message.method === undefined) return;
    const event: CdpEvent = {
      method: message.method,
      params: message.params ?? {},
      ...(message.sessionId === undefined ? {} : { sessionId: message.sessionId }),
    };
    for (const listener of this.#listeners) listener(event);
  }

  #fail(reason: Error): void {
    this.#closedReason ??= reason;
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
  }
}
