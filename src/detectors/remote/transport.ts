import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import type { SessionPool } from "./sessions.js";

/** Where a service of another process answers, and how: what remote detectors and remote internal services share. */
export interface RemoteEndpoint {
  /** Base URL, `http://` (h2c, prior knowledge) or `https://` (TLS, ALPN h2). */
  readonly url: string;
  /** `grpc` for grpcio, grpc-go, grpc-java...; `connect` for Connect servers over HTTP/2. */
  readonly protocol: "grpc" | "connect";
}

/**
 * The HTTP/2 transport for a remote endpoint's protocol. Binary protobuf in both cases: it is
 * what grpcio speaks, and it keeps Connect servers from paying for JSON on every segment.
 * `defaultTimeoutMs` bounds every call that does not set its own deadline.
 */
export function remoteTransport(endpoint: RemoteEndpoint, sessions: SessionPool, defaultTimeoutMs?: number): Transport {
  const options = {
    baseUrl: endpoint.url,
    sessionManager: sessions.sessionFor(endpoint.url),
    useBinaryFormat: true,
    ...(defaultTimeoutMs !== undefined ? { defaultTimeoutMs } : {}),
  };
  // gRPC is HTTP/2 by definition; Connect must be told, or it would speak HTTP/1.1.
  return endpoint.protocol === "grpc"
    ? createGrpcTransport(options)
    : createConnectTransport({ ...options, httpVersion: "2" });
}
