import type { CorpusEvent } from "../corpus/corpus.js";

/**
 * Body-size buckets of issue 9. A body belongs to the bucket whose range holds its byte length;
 * ranges leave gaps so each bucket's bodies stay near its nominal size.
 */
export interface Bucket {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  /** Every how many candidates one is kept: small where candidates are rare (early steps only). */
  readonly stride: number;
}

export const BUCKETS: readonly Bucket[] = [
  { name: "1 KB", min: 0, max: 2 * 1024, stride: 3 },
  { name: "8 KB", min: 4 * 1024, max: 16 * 1024, stride: 1 },
  { name: "64 KB", min: 32 * 1024, max: 128 * 1024, stride: 2 },
  { name: "256 KB", min: 128 * 1024, max: 512 * 1024, stride: 5 },
  { name: "1 MB", min: 512 * 1024, max: 1536 * 1024, stride: 7 },
];

export interface BucketSample {
  readonly bucket: Bucket;
  /** Bodies of the bucket, spread over sessions, protocols and both event kinds. */
  readonly bodies: readonly string[];
  readonly meanBytes: number;
  readonly protocols: Readonly<Record<string, number>>;
}

/**
 * Keeps up to `perBucket` bodies of each bucket from a stream of corpus events, taking every
 * bucket's `stride`-th candidate of each (bucket, protocol) pair so the sample is not one
 * session's run.
 */
export function sampleBuckets(events: Iterable<CorpusEvent>, perBucket: number): BucketSample[] {
  const kept = BUCKETS.map(() => new Map<string, string[]>());
  const seen = BUCKETS.map(() => new Map<string, number>());
  const perProtocol = Math.ceil(perBucket / 3);
  const full = () => kept.every((m) => [...m.values()].reduce((n, l) => n + l.length, 0) >= perProtocol * 3);
  for (const e of events) {
    // Stop rendering once every bucket is full: the long sessions alone are hundreds of MB.
    if (full()) break;
    const bytes = Buffer.byteLength(e.body);
    const i = BUCKETS.findIndex((b) => bytes >= b.min && bytes < b.max);
    const bucket = BUCKETS[i];
    const byProtocol = kept[i];
    const counts = seen[i];
    if (!bucket || !byProtocol || !counts) continue;
    const n = counts.get(e.protocol) ?? 0;
    counts.set(e.protocol, n + 1);
    const list = byProtocol.get(e.protocol) ?? [];
    if (n % bucket.stride === 0 && list.length < perProtocol) {
      list.push(e.body);
      byProtocol.set(e.protocol, list);
    }
  }
  return BUCKETS.map((bucket, i) => {
    const byProtocol = kept[i] ?? new Map<string, string[]>();
    const bodies = [...byProtocol.values()].flat();
    const protocols = Object.fromEntries([...byProtocol].map(([p, l]) => [p, l.length]));
    const meanBytes = bodies.reduce((s, b) => s + Buffer.byteLength(b), 0) / Math.max(1, bodies.length);
    return { bucket, bodies, meanBytes, protocols };
  });
}
