import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import type { RemoteDetectorConfig } from "./config.js";
import type { SessionPool } from "./sessions.js";

/**
 * The HTTP/2 transport for a remote detector's protocol. Binary protobuf in both cases: it is
 * what grpcio speaks, and it keeps Connect servers from paying for JSON on every segment.
 */
export function remoteTransport(config: RemoteDetectorConfig, sessions: SessionPool): Transport {
  const options = {
    baseUrl: config.url,
    sessionManager: sessions.sessionFor(config.url),
    useBinaryFormat: true,
  };
  // gRPC is HTTP/2 by definition; Connect must be told, or it would speak HTTP/1.1.
  return config.protocol === "grpc"
    ? createGrpcTransport(options)
    : createConnectTransport({ ...options, httpVersion: "2" });
}
