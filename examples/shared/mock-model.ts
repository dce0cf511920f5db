import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One scripted model turn. The mock servers answer each model call with the next turn of
 * their script, in the provider's own shape (JSON, or SSE when the request says `stream`).
 */
export type ModelTurn =
  | { readonly text: string }
  | {
      readonly toolCalls: readonly { readonly name: string; readonly args: Record<string, unknown> }[];
      readonly text?: string;
    }
  /** Answers `You said: <text of the last message it received>`, so a test sees what arrived. */
  | { readonly echo: true };

export interface MockModel {
  /** Base URL for the SDK's `baseURL`. */
  readonly url: string;
  /** Every request body the mock received, parsed, in order: what the model really saw. */
  readonly received: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Answers one parsed request with a status and a body (a JSON object, or SSE text). */
export type Answerer = (
  body: Record<string, unknown>,
  turn: ModelTurn | undefined,
) => { status: number; json?: unknown; sse?: string };

/**
 * A loopback HTTP server standing in for a provider, so the examples run the official SDKs
 * end to end without a network or an account. It listens on 127.0.0.1 and a free port,
 * records every body it receives and hands the provider-specific part (`answer`) the next
 * turn of `script`.
 */
export async function startMockModel(
  path: string,
  script: readonly ModelTurn[],
  answer: Answerer,
): Promise<MockModel> {
  const received: Record<string, unknown>[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    void handle(request, response);
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== "POST" || !request.url?.endsWith(path)) {
      response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    received.push(body);
    const out = answer(body, script[next++]);
    if (out.sse !== undefined) {
      // Frame by frame, as a provider streams, so the client really reads a stream.
      response.writeHead(out.status, { "content-type": "text/event-stream" });
      for (const frame of out.sse.split(/(?<=\n\n)/)) response.write(frame);
      response.end();
    } else {
      response.writeHead(out.status, { "content-type": "application/json" }).end(JSON.stringify(out.json));
    }
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
