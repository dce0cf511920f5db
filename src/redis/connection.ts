import { createClient, ErrorReply } from "redis";

/** Tuning of a {@link RedisConnection}. Times are milliseconds. */
export interface RedisConnectionOptions {
  /** How long `open` waits for the first connection, and the bound of every connect attempt. */
  readonly connectTimeoutMs: number;
  /**
   * Commands outstanding this long with no reply at all mean the connection is dead although the
   * client calls it ready (a reset it missed, a host gone silent): it is replaced by a fresh one.
   * Far above a command timeout, so a merely slow server keeps its connection.
   */
  readonly stallMs: number;
  /** Every failure: a failed connect, a reset, a stalled connection replaced. */
  readonly onError?: (error: Error) => void;
  /** Each time a connection becomes ready. */
  readonly onReady?: () => void;
}

type Client = ReturnType<typeof createClient>;

/** Reconnect delays double from 50 ms up to this, each jittered by up to a quarter. */
const RECONNECT_CAP_MS = 1_000;

/**
 * One Redis connection that recovers by itself, for callers that would rather fail a call at
 * once than wait: a command sent while disconnected fails immediately (no offline queue), every
 * command has a deadline that keeps counting after it is written (node-redis' own `timeout` stops
 * once a command is on the wire), and reconnects back off to at most about a second.
 *
 * Two faults of node-redis 5.9 are covered. A reset that lands during the connection handshake
 * is swallowed when the handshake holds only `CLIENT SETINFO` (whose errors the client ignores),
 * and the client then calls a dead socket ready forever: every command is written into it and
 * never answered (node-redis issues #3104, #3108, fixed in 5.11). The handshake is therefore
 * left empty (`disableClientInfo`), and a connection whose commands get no reply for `stallMs`
 * is replaced whatever the cause, which also covers a host that went silent.
 */
export class RedisConnection {
  readonly #url: string;
  readonly #options: RedisConnectionOptions;
  #client: Client;
  #closed = false;
  /** Commands sent on the current client and not yet settled by it (answered or flushed). */
  #outstanding = 0;
  /** When the current client last showed progress: ready, a reply, or its first outstanding command. */
  #progressAt = Date.now();

  private constructor(url: string, options: RedisConnectionOptions) {
    this.#url = url;
    this.#options = options;
    this.#client = this.#create();
  }

  /**
   * Connects to `url`. A server that does not answer within `connectTimeoutMs` does not fail the
   * call: the connection keeps trying in the background and calls fail until it is up.
   */
  static async open(url: string, options: RedisConnectionOptions): Promise<RedisConnection> {
    const connection = new RedisConnection(url, options);
    const connected = connection.#client.connect().then(
      () => true,
      () => false,
    );
    const ready = await Promise.race([connected, sleep(options.connectTimeoutMs).then(() => false)]);
    if (!ready) options.onError?.(new Error(`redis at ${redactUrl(url)} not reachable at start`));
    return connection;
  }

  /** True while connected: calls can succeed. */
  get ready(): boolean {
    return !this.#closed && this.#client.isReady;
  }

  /**
   * Sends one command and waits at most `timeoutMs` for its answer. Fails at once when not
   * connected; a reply Redis sends after the deadline is read and dropped in order, never handed
   * to a later command.
   */
  async send<T = unknown>(args: readonly string[], timeoutMs: number): Promise<T> {
    const client = this.#client;
    if (!this.ready) throw new Error("redis is not connected");
    if (this.#stalled()) {
      this.#replace(client);
      throw new Error("redis connection stopped answering; reconnecting");
    }
    if (this.#outstanding++ === 0) this.#progressAt = Date.now();
    const answer = client.sendCommand([...args]).then(
      (reply) => {
        this.#settled(client, true);
        return reply;
      },
      (error: unknown) => {
        // An error reply is an answer: the connection works.
        this.#settled(client, error instanceof ErrorReply);
        throw error;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      // Decided after the loop's next poll for I/O: an answer that arrived while the process was
      // busy (timers run before sockets are read) is not taken for a late one.
      timer = setTimeout(
        () =>
          setImmediate(() => {
            if (this.#stalled()) this.#replace(client);
            reject(new Error(`redis did not answer ${args[0]} within ${timeoutMs} ms`));
          }),
        timeoutMs,
      );
    });
    try {
      return (await Promise.race([answer, expired])) as T;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Closes after in-flight commands are answered; a server that does not answer them within
   * `waitMs` gets the socket torn down instead, so closing never hangs.
   */
  async close(waitMs = 1_000): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    if (client.isReady) await Promise.race([client.close().catch(() => undefined), sleep(waitMs)]);
    if (client.isOpen) client.destroy();
  }

  #create(): Client {
    const client = createClient({
      url: this.#url,
      // A command issued while disconnected fails at once instead of waiting for a reconnect.
      disableOfflineQueue: true,
      // No handshake: see the class comment (a reset during CLIENT SETINFO leaves a false ready).
      disableClientInfo: true,
      socket: {
        connectTimeout: this.#options.connectTimeoutMs,
        reconnectStrategy: (retries) => {
          const base = Math.min(50 * 2 ** Math.min(retries, 16), RECONNECT_CAP_MS);
          return Math.round(base * (1 + Math.random() / 4));
        },
      },
    });
    // The client reports every failed reconnect; without a listener each would crash the process.
    // A replaced client's events are old news.
    client.on("error", (error: Error) => {
      if (client === this.#client && !this.#closed) this.#options.onError?.(error);
    });
    client.on("ready", () => {
      if (client !== this.#client || this.#closed) return;
      this.#progressAt = Date.now();
      this.#options.onReady?.();
    });
    return client;
  }

  #settled(client: Client, answered: boolean): void {
    if (client !== this.#client) return;
    this.#outstanding--;
    if (answered) this.#progressAt = Date.now();
  }

  #stalled(): boolean {
    return this.#outstanding > 0 && Date.now() - this.#progressAt >= this.#options.stallMs;
  }

  /** Gives up on `client` (its outstanding commands fail) and connects a fresh one in the background. */
  #replace(client: Client): void {
    if (client !== this.#client || this.#closed) return;
    this.#options.onError?.(
      new Error(`redis answered nothing for ${Date.now() - this.#progressAt} ms; reconnecting`),
    );
    this.#client = this.#create();
    this.#outstanding = 0;
    this.#progressAt = Date.now();
    if (client.isOpen) client.destroy();
    this.#client.connect().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Connection strings may carry a password; logs must not. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//***@");
}
