import http2 from "node:http2";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";

/**
 * Serves internal services over plaintext HTTP/2 (gRPC, gRPC-Web and Connect) on their own
 * port: h2c and the HTTP/1.1 JSON bridge cannot share one port without TLS.
 */
export async function serveRpc(
  routes: (router: ConnectRouter) => void,
  host: string,
  port: number,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http2.createServer(connectNodeAdapter({ routes }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
