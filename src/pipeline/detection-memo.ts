import type { EventKind, Finding, Segment } from "../../gen/guard/v1/types_pb.js";

/**
 * Incremental judging (DESIGN.md decision 5). Every step/request repeats the whole
 * conversation; this memo lets a detector see each text once per organization. A unit is
 * every segment of one payload path (the leaves of JSON-encoded arguments share their
 * string's path). Results are kept per organization, keyed by the unit's text itself (a
 * Map lookup hashes it once; nothing is concatenated or copied for the common one-segment
 * unit) and then by detector version and the segment facts a detector may read (channel,
 * addressability, tool, argument keys, event kind). A hit is replayed onto whatever path
 * and call the unit has in the later body. Bounded by the bytes of text held.
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

/** What one unit's text has been judged as: by set of facts, then by detector. */
interface UnitEntry {
  readonly results: Map<string, Map<string, readonly Finding[]>>;
  readonly bytes: number;
}

/** A unit's place in the memo, looked up once and shared by every detector of the step. */
export interface MemoSlot {
  readonly text: string;
  readonly facts: string;
  entry: UnitEntry | undefined;
}

/** How a hit keeps a unit from eviction: it moves to the young end of its organization's map. */
function touch(units: Map<string, UnitEntry>, text: string, entry: UnitEntry): void {
  units.delete(text);
  units.set(text, entry);
}

export class DetectionMemo {
  readonly #orgs = new Map<string, Map<string, UnitEntry>>();
  #bytes = 0;
  hits = 0;
  misses = 0;

  /** `maxBytes` bounds the texts held (UTF-16 code units x 2); 0 disables the memo. */
  constructor(private readonly maxBytes = 128 * 1024 * 1024) {}

  get size(): number {
    let n = 0;
    for (const units of this.#orgs.values()) n += units.size;
    return n;
  }

  /** Finds the unit's entry (if any) for this organization. */
  slot(orgId: string, kind: EventKind, unit: Unit): MemoSlot {
    const first = unit.segments[0];
    const text =
      unit.segments.length === 1
        ? (first?.text ?? "")
        : unit.segments.map((s) => `${s.argumentKey}\u0002${s.text}`).join("\u0003");
    const argumentKey = unit.segments.length === 1 ? (first?.argumentKey ?? "") : "";
    const facts = `${first?.channel}\u0001${first?.addressable ? 1 : 0}\u0001${first?.toolName ?? ""}\u0001${argumentKey}\u0001${kind}`;
    const units = this.#orgs.get(orgId);
    const entry = units?.get(text);
    // A text seen again is in use: the history an agent keeps re-sending must outlive
    // one-off texts, or a long conversation would be judged afresh once the memo is full.
    if (units && entry) touch(units, text, entry);
    return { text, facts, entry };
  }

  /** The unit's findings by this detector, re-addressed to its current path and call; undefined on a miss. */
  recall(slot: MemoSlot, detector: string, unit: Unit): Finding[] | undefined {
    // Two lookups with strings that already exist: no key is built per unit and detector.
    const known = slot.entry?.results.get(slot.facts)?.get(detector);
    if (!known) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    const callId = unit.segments[0]?.callId ?? "";
    // A history text usually keeps its path from step to step: then the stored findings are
    // handed out as they are (callers read findings, never change them); otherwise they are
    // re-addressed copies.
    const first = known[0];
    if (!first || (first.path === unit.path && first.callId === callId)) return [...known];
    return known.map((f) => ({ ...f, path: unit.path, callId }));
  }

  remember(orgId: string, slot: MemoSlot, detector: string, findings: readonly Finding[]): void {
    if (this.maxBytes === 0) return;
    const bytes = slot.text.length * 2;
    if (bytes > this.maxBytes / 4) return;
    let units = this.#orgs.get(orgId);
    if (!units) {
      units = new Map();
      this.#orgs.set(orgId, units);
    }
    let entry = slot.entry ?? units.get(slot.text);
    if (!entry) {
      entry = { results: new Map(), bytes };
      units.set(slot.text, entry);
      this.#bytes += bytes;
      this.#evict(units);
    }
    slot.entry = entry;
    let byDetector = entry.results.get(slot.facts);
    if (!byDetector) {
      byDetector = new Map();
      entry.results.set(slot.facts, byDetector);
    }
    byDetector.set(detector, findings.map((f) => ({ ...f })));
  }

  /** Drops the oldest units, of the organization that just grew first, until within bounds. */
  #evict(growing: Map<string, UnitEntry>): void {
    for (const units of [growing, ...this.#orgs.values()]) {
      for (const [text, entry] of units) {
        if (this.#bytes <= this.maxBytes) return;
        units.delete(text);
        this.#bytes -= entry.bytes;
      }
    }
  }
}
