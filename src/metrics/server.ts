import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CONTENT_TYPE } from "./exposition.js";
import type { GuardMetrics } from "./guard-metrics.js";

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * /metrics on a port of its own (GUARD_METRICS_PORT), so the scrape endpoint can be bound and
 * firewalled apart from the public bridge. A plain node:http server: one path, no framework.
 */
export async function serveMetrics(metrics: GuardMetrics, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const body = metrics.render();
    response.writeHead(200, { "content-type": CONTENT_TYPE, "content-length": Buffer.byteLength(body) });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
