import type { HttpResult } from "../load/http.js";
import type { IncrementalResult } from "../service/incremental.js";
import type { LatencyRow } from "../service/latency.js";
import type { MemoryResult } from "../service/memory.js";
import type { MulticoreResult } from "../service/multicore.js";
import type { SplitRow } from "../service/split.js";
import type { Summary } from "../service/stats.js";
import type { ThroughputResult } from "../service/throughput.js";

/** Everything one `npm run bench` measured, as written to bench/.data/results.json and rendered. */
export interface BenchResults {
  readonly command: string;
  readonly date: string;
  readonly machine: {
    readonly nproc: number;
    readonly cpu: string;
    readonly node: string;
    readonly revision: string;
    readonly uptimeBefore: string;
    readonly uptimeAfter: string;
  };
  readonly corpus: {
    readonly seed: number;
    readonly sessions: number;
    readonly sampledEvents: number;
    readonly sampledMB: number;
    readonly seconds: number;
    readonly buckets: readonly { bucket: string; bodies: number; meanBytes: number; protocols: Record<string, number> }[];
  };
  readonly memory: MemoryResult;
  readonly floor: Readonly<Record<string, Summary>>;
  readonly latency: readonly LatencyRow[];
  /** Default memo, bodies replayed: the steady state of a history that was judged before. */
  readonly split: readonly SplitRow[];
  /** Memo off: what the same bodies cost when every text is new. */
  readonly splitCold: readonly SplitRow[];
  readonly incremental: IncrementalResult;
  readonly throughput: readonly ThroughputResult[];
  readonly multicore: readonly MulticoreResult[];
  readonly http: HttpResult;
  readonly seconds: number;
}
