import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import type { App } from "../../src/app.js";
import { injectEvaluate } from "./bench-app.js";
import { BENCH_KEY } from "./config.js";
import { ReplayBody } from "./new-step.js";
import type { BucketSample } from "./buckets.js";
import { type Bounds, bounded } from "./loop.js";
import { type Summary, summarize } from "./stats.js";

export interface LatencyRow {
  readonly bucket: string;
  readonly meanBytes: number;
  readonly bodies: number;
  /** Service-side, over a socket: from the request's headers to its response handed to the kernel. */
  readonly latency: Summary;
  /** The same requests as the client saw them (loopback, the client in the same process). */
  readonly roundTrip: Summary;
  /** The same bodies through Fastify's injector (no socket), for comparison with earlier runs. */
  readonly injector: Summary;
  /** Answers other than 200 (each is a benchmark bug: the corpus is valid). */
  readonly failures: number;
}

/** POSTs one body over a kept-alive connection; answers the status once the response is read. */
function post(port: number, agent: Agent, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/evaluate",
        agent,
        headers: {
          authorization: `Bearer ${BENCH_KEY}`,
          "content-type": "application/json",
          "content-length": body.length,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Service-side latency by bucket, one POST /v1/evaluate at a time over a kept-alive loopback
 * connection to the real bridge: the figure holds routing, auth, rate limiting, body reading,
 * parse, schema validation, the pipeline and serialisation, timed by the service itself (from
 * Fastify's request start, when the headers are in, to the response written). Each sample is
 * a new step (fresh step id), alternately sent over the socket and through Fastify's injector
 * (issue 9: the injector's own cost, a stream turn and a string-to-bytes copy per request,
 * was most of the gap between the pipeline and the injector's figure).
 * The warm-up evaluates every body of the bucket once, so the timed samples all find their
 * texts in the detection memo: they price a re-sent history, the same state for every bucket.
 */
export async function measureLatency(
  app: App,
  samples: readonly BucketSample[],
  boundsFor: (bucket: string) => Bounds,
  seq: { next: number },
): Promise<LatencyRow[]> {
  let serviceMs = Number.NaN;
  app.bridge.addHook("onResponse", async (_request, reply) => {
    serviceMs = reply.elapsedTime;
  });
  await app.bridge.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.bridge.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const rows: LatencyRow[] = [];
  try {
    for (const sample of samples) {
      if (sample.bodies.length === 0) continue;
      let failures = 0;
      const service: number[] = [];
      const roundTrip: number[] = [];
      const injector: number[] = [];
      // Warm-up covers every body once, so the detection memo holds all of them (module doc).
      const bounds = boundsFor(sample.bucket.name);
      const warmup = Math.max(bounds.warmup, sample.bodies.length);
      const replays = sample.bodies.map((body) => new ReplayBody(body));
      await bounded({ ...bounds, warmup }, async (i) => {
        const replay = replays[i % replays.length] ?? new ReplayBody("");
        const bytes = replay.asNewStep(seq.next++);
        serviceMs = Number.NaN;
        const sent = performance.now();
        const status = await post(port, agent, bytes);
        const answered = performance.now() - sent;
        // The hook runs when the response is written, before the client reads it; wait a turn if not.
        if (Number.isNaN(serviceMs)) await new Promise((resolve) => setImmediate(resolve));
        const viaInjector = replay.asNewStep(seq.next++);
        const injected = performance.now();
        const injectedStatus = await injectEvaluate(app, viaInjector);
        const injectedMs = performance.now() - injected;
        if (i < warmup) return;
        if (status !== 200) failures++;
        if (injectedStatus !== 200) failures++;
        service.push(serviceMs);
        roundTrip.push(answered);
        injector.push(injectedMs);
      });
      rows.push({
        bucket: sample.bucket.name,
        meanBytes: sample.meanBytes,
        bodies: sample.bodies.length,
        latency: summarize(service),
        roundTrip: summarize(roundTrip),
        injector: summarize(injector),
        failures,
      });
    }
  } finally {
    agent.destroy();
  }
  return rows;
}
