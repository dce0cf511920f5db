import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * How the proxy treats traffic:
 * - `up`: forwards both ways.
 * - `down`: the server is gone. Every open connection is reset and every new one is reset on
 *   accept (ECONNRESET, "Connection terminated unexpectedly" on the client side).
 * - `blackhole`: the server stopped answering without a word (a dead host, a partition). Open
 *   connections stay open but no byte passes any more; new ones are accepted and never
 *   answered. The client only learns of it from its own timeouts.
 */
export type ProxyMode = "up" | "down" | "blackhole";

/** A TCP proxy on 127.0.0.1 in front of one upstream, whose connectivity a test can cut and restore. */
export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number;
  readonly mode: ProxyMode;
  /** Connections accepted since start, and those open now. */
  readonly accepted: number;
  readonly open: number;
  /** Cuts connectivity now; `down` resets every connection at once. */
  cut(mode?: Exclude<ProxyMode, "up">): void;
  /**
   * Arms a cut at the worst moment: the next client message containing `marker` (say `COMMIT`)
   * is delivered to the server, and when the server answers it, the answer is thrown away and
   * the proxy goes `down`. The server acted; the client never hears whether it did.
   */
  cutAfter(marker: string): void;
  /**
   * Forwards again. Connections stalled by a black hole are reset, unless `keepHeld`: then they
   * stay open and silent forever, as a connection to a host that died does.
   */
  restore(options?: { keepHeld?: boolean }): void;
  close(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  upstream?: Socket;
  /** Caught in a black hole: never forwards again. */
  stalled: boolean;
  /** Carried the armed marker: the server's next answer is dropped and the proxy goes down. */
  doomed: boolean;
}

/** Starts a proxy to `upstreamHost:upstreamPort` on a free local port. */
export async function startTcpProxy(upstreamHost: string, upstreamPort: number): Promise<TcpProxy> {
  let mode: ProxyMode = "up";
  let accepted = 0;
  let marker: Buffer | undefined;
  const pairs = new Set<Pair>();

  const drop = (pair: Pair) => {
    pairs.delete(pair);
    if (!pair.client.destroyed) pair.client.resetAndDestroy();
    if (pair.upstream && !pair.upstream.destroyed) pair.upstream.resetAndDestroy();
  };
  const goDown = () => {
    mode = "down";
    for (const pair of [...pairs]) drop(pair);
  };

  const connect = (pair: Pair) => {
    const upstream = createConnection({ host: upstreamHost, port: upstreamPort });
    pair.upstream = upstream;
    upstream.on("error", () => drop(pair));
    upstream.on("close", () => drop(pair));
    // Bytes are forwarded by hand rather than piped, so a black hole can stop them both ways.
    pair.client.on("data", (chunk: Buffer) => {
      if (mode !== "up" || pair.stalled) return;
      if (marker && chunk.includes(marker)) {
        marker = undefined;
        pair.doomed = true;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (pair.doomed) return goDown();
      if (mode === "up" && !pair.stalled) pair.client.write(chunk);
    });
  };

  const server: Server = createServer((client) => {
    accepted++;
    const pair: Pair = { client, stalled: false, doomed: false };
    pairs.add(pair);
    client.on("error", () => drop(pair));
    client.on("close", () => drop(pair));
    if (mode === "down") return drop(pair);
    if (mode === "blackhole") {
      // Held open and never connected upstream: the client's handshake goes unanswered.
      pair.stalled = true;
      client.pause();
      return;
    }
    connect(pair);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no TCP address");

  return {
    port: address.port,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    get open() {
      return pairs.size;
    },
    cut(next = "down") {
      if (next === "down") return goDown();
      mode = next;
      for (const pair of pairs) pair.stalled = true;
    },
    cutAfter(text) {
      marker = Buffer.from(text);
    },
    restore(options = {}) {
      marker = undefined;
      if (!options.keepHeld) for (const pair of [...pairs]) if (pair.stalled) drop(pair);
      mode = "up";
    },
    async close() {
      goDown();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
