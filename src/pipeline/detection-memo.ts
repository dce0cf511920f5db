import { clone } from "@bufbuild/protobuf";
import { type EventKind, type Finding, FindingSchema, type Segment } from "../../gen/guard/v1/types_pb.js";

/**
 * Incremental judging (DESIGN.md decision 5). Every step/request repeats the whole
 * conversation; this memo lets a detector see each text once per organization. A unit is
 * every segment of one payload path (the leaves of JSON-encoded arguments share their
 * string's path); its result is kept keyed by organization, detector and version, the
 * segment facts a detector may read (channel, addressability, tool, argument keys, event
 * kind) and the texts, and replayed onto whatever path the unit has in a later body. A
 * bounded LRU by text size keeps memory flat.
 */
export interface Unit {
  readonly path: string;
  readonly segments: Segment[];
}

/** Groups segments by path, keeping body order. */
export function unitsOf(segments: readonly Segment[]): Unit[] {
  const byPath = new Map<string, Unit>();
  for (const segment of segments) {
    const unit = byPath.get(segment.path);
    if (unit) unit.segments.push(segment);
    else byPath.set(segment.path, { path: segment.path, segments: [segment] });
  }
  return [...byPath.values()];
}

interface Entry {
  readonly findings: Finding[];
  readonly bytes: number;
}

export class DetectionMemo {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  hits = 0;
  misses = 0;

  /** `maxBytes` bounds the texts held (UTF-16 code units x 2); 0 disables the memo. */
  constructor(private readonly maxBytes = 128 * 1024 * 1024) {}

  get size(): number {
    return this.#entries.size;
  }

  key(orgId: string, detector: string, kind: EventKind, unit: Unit): string {
    const first = unit.segments[0];
    const facts = `${first?.channel}\u0001${first?.addressable ? 1 : 0}\u0001${first?.toolName ?? ""}\u0001${kind}`;
    const texts =
      unit.segments.length === 1
        ? `${first?.argumentKey ?? ""}\u0002${first?.text ?? ""}`
        : unit.segments.map((s) => `${s.argumentKey}\u0002${s.text}`).join("\u0003");
    return `${orgId}\u0000${detector}\u0000${facts}\u0000${texts}`;
  }

  /** The unit's findings re-addressed to its current path and call, or undefined on a miss. */
  recall(key: string, unit: Unit): Finding[] | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: re-insert.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    const callId = unit.segments[0]?.callId ?? "";
    return entry.findings.map((f) => {
      const copy = clone(FindingSchema, f);
      copy.path = unit.path;
      copy.callId = callId;
      return copy;
    });
  }

  remember(key: string, findings: readonly Finding[]): void {
    if (this.maxBytes === 0) return;
    const bytes = key.length * 2;
    if (bytes > this.maxBytes / 4) return;
    const previous = this.#entries.get(key);
    if (previous) this.#bytes -= previous.bytes;
    this.#entries.set(key, { findings: findings.map((f) => clone(FindingSchema, f)), bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }
}
