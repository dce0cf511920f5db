import {
  type ConversationEntry,
  EventKind,
  type Finding,
  type Segment,
} from "../../gen/guard/v1/types_pb.js";
import { matchRun, nextRun, type RunMatch, type SessionRun } from "./session-run.js";

/**
 * Incremental judging (DESIGN.md decision 5). Every step/request repeats the whole
 * conversation; this memo lets a detector see each text once per organization, and keeps the
 * cost of a step with its new content rather than with its history.
 *
 * A unit is every segment of one payload path (the leaves of JSON-encoded arguments share
 * their string's path). What a unit was judged as is known at two levels, both per
 * organization:
 *
 * - By session (session-run.ts): the messages of the session's last request, in order, each
 *   with its conversation digest, its segments' channels and addressability, and the findings
 *   of its units that had any. A request that repeats them (the history a conversation
 *   re-sends) is matched message by message on those, without reading the history's texts
 *   again: decomposition already read them once to digest them, and a digest covers every
 *   text its message contributes. The matched run is recalled whole; only what follows it is
 *   looked up one unit at a time.
 * - By text: each unit's text, then the segment facts a detector may read (channel,
 *   addressability, tool, argument keys, event kind) and the detector set (names, versions,
 *   channels), holding every detector's findings in one entry. A hit is re-addressed to the
 *   path and call the unit has in the later body.
 *
 * Memory is bounded in bytes: half the bound for the texts of the text level, half for the
 * sessions' message lists (counting the texts their findings' units hold, even where the text
 * level holds the same string), each evicting its least recently used entries.
 */
export interface Unit {
  readonly path: string;
  readonly segments: Segment[];
}

/** Groups segments by path, keeping body order. */
export function unitsOf(segments: readonly Segment[], from = 0): Unit[] {
  const byPath = new Map<string, Unit>();
  for (let i = from; i < segments.length; i++) {
    const segment = segments[i]!;
    const unit = byPath.get(segment.path);
    if (unit) unit.segments.push(segment);
    else byPath.set(segment.path, { path: segment.path, segments: [segment] });
  }
  return [...byPath.values()];
}

/** Per detector of a set, in the set's order: its findings, undefined where it has not judged. */
export type UnitResults = (readonly Finding[] | undefined)[];

/** Where a detector set stands for one body: what it is called in the memo, who sees what. */
export interface DetectorSet {
  /** Names, versions and channels of the detectors, in order: results are only shared under the same key. */
  readonly key: string;
  /** Whether detector `d` is shown the unit's channel. */
  applies(d: number, channel: number): boolean;
  readonly size: number;
}

/** One unit of a body as detection sees it: its results so far, undefined for each detector still to judge it. */
export interface JudgedUnit {
  readonly unit: Unit;
  readonly results: UnitResults;
}

/** A unit's place at the text level; `complete` when every detector's answer was found there. */
interface TextSlot {
  readonly text: string;
  readonly facts: string;
  entry: TextEntry | undefined;
  complete: boolean;
}

/** What one unit's text has been judged as: by segment facts and detector set. */
interface TextEntry {
  readonly results: Map<string, UnitResults>;
  readonly bytes: number;
}

/** Who is asking: results never cross organizations, nor detector sets. */
export interface MemoScope {
  readonly orgId: string;
  readonly kind: EventKind;
  /** The session the body was attached to; empty or absent: no session level (responses never have one). */
  readonly sessionId?: string;
  /** The body's conversation, as decomposition digested it; absent: no session level. */
  readonly conversation?: readonly ConversationEntry[];
  readonly set: DetectorSet;
}

/** What `recall` found, handed back to `remember` once the detectors have filled the gaps. */
export interface Recall {
  /** The session's last request, and how many of its first messages this body repeats. */
  readonly session: { readonly run: SessionRun; readonly match: RunMatch } | undefined;
  /** The body's segments. */
  readonly segments: readonly Segment[];
  /** Of those, the ones with findings, addressed to this body, in body order. */
  readonly speaking: JudgedUnit[];
  /** Every unit after them, in body order, with gaps where the text level knew nothing. */
  readonly units: JudgedUnit[];
  /** The text-level place of each of `units`. */
  readonly slots: TextSlot[];
}

const EMPTY: readonly Finding[] = Object.freeze([]);

export class DetectionMemo {
  readonly #texts = new Map<string, Map<string, TextEntry>>();
  readonly #sessions = new Map<string, Map<string, SessionRun>>();
  #textBytes = 0;
  #sessionBytes = 0;
  /** Units recalled by text. */
  hits = 0;
  /** Units looked up by text and not found (or found without every detector's answer). */
  misses = 0;
  /** Messages recalled from their session's last request. */
  sessionHits = 0;

  /** `maxBytes` bounds what is held (texts as UTF-16 code units x 2); 0 disables the memo. */
  constructor(private readonly maxBytes = 128 * 1024 * 1024) {}

  /** Units held at the text level. */
  get size(): number {
    let n = 0;
    for (const units of this.#texts.values()) n += units.size;
    return n;
  }

  /** Bytes held at each level, for metrics and tests. */
  get bytes(): { texts: number; sessions: number } {
    return { texts: this.#textBytes, sessions: this.#sessionBytes };
  }

  /**
   * What is known of a body's segments: the run that repeats the session's last request in one
   * pass, then each other unit by its text. Units not fully known come back with gaps
   * (undefined) for the detectors that still have to judge them.
   */
  recall(scope: MemoScope, segments: readonly Segment[]): Recall {
    let at = 0;
    let session: Recall["session"];
    let speaking: JudgedUnit[] = [];
    const previous = this.#session(scope);
    if (previous && scope.conversation) {
      const match = matchRun(previous, scope.conversation, segments);
      if (match.count > 0) {
        session = { run: previous, match };
        speaking = match.speaking;
        at = match.at;
      }
      this.sessionHits += match.count;
    }
    const units: JudgedUnit[] = [];
    const slots: TextSlot[] = [];
    const texts = this.maxBytes === 0 ? undefined : this.#texts.get(scope.orgId);
    for (const unit of unitsOf(segments, at)) {
      const slot = textSlot(scope, unit);
      const entry = texts?.get(slot.text);
      // A text seen again is in use: it must outlive one-off texts.
      if (texts && entry) touch(texts, slot.text, entry);
      slot.entry = entry;
      const known = entry?.results.get(slot.facts);
      slot.complete = known?.every((r) => r !== undefined) ?? false;
      if (slot.complete) this.hits++;
      else this.misses++;
      slots.push(slot);
      units.push({ unit, results: readdressed(known, unit, scope.set.size) });
    }
    return { session, segments, speaking, units, slots };
  }

  /**
   * Keeps what the detectors said of the units they judged (per text), and the body's units as
   * the session's last request. Units some detector could not judge stay partly known.
   */
  remember(scope: MemoScope, recall: Recall): void {
    if (this.maxBytes === 0) return;
    recall.slots.forEach((slot, i) => {
      const judged = recall.units[i];
      if (judged && !slot.complete) this.#rememberText(scope.orgId, slot, judged.results);
    });
    if (this.#sessionLevel(scope)) this.#rememberSession(scope, recall);
  }

  /** Only a request repeats its conversation: a response is all new, and must not replace it. */
  #sessionLevel(scope: MemoScope): boolean {
    return this.maxBytes > 0 && !!scope.sessionId && scope.kind === EventKind.STEP_REQUEST;
  }

  #session(scope: MemoScope): SessionRun | undefined {
    if (!this.#sessionLevel(scope)) return undefined;
    const run = this.#sessions.get(scope.orgId)?.get(scope.sessionId ?? "");
    return run && run.set === scope.set.key ? run : undefined;
  }

  #rememberText(orgId: string, slot: TextSlot, results: UnitResults): void {
    if (results.every((r) => r === undefined)) return;
    const bytes = slot.text.length * 2;
    if (bytes > this.maxBytes / 8) return;
    let units = this.#texts.get(orgId);
    if (!units) {
      units = new Map();
      this.#texts.set(orgId, units);
    }
    let entry = slot.entry ?? units.get(slot.text);
    if (!entry) {
      entry = { results: new Map(), bytes };
      units.set(slot.text, entry);
      this.#textBytes += bytes;
      this.#textBytes = evict(this.#texts, units, this.#textBytes, this.maxBytes / 2);
    }
    slot.entry = entry;
    // Stored as the findings of the unit's path and call at the time; a later hit re-addresses.
    entry.results.set(slot.facts, results.slice());
  }

  #rememberSession(scope: MemoScope, recall: Recall): void {
    const orgId = scope.orgId;
    const sessionId = scope.sessionId ?? "";
    let sessions = this.#sessions.get(orgId);
    const old = sessions?.get(sessionId);
    const run = nextRun(
      scope.set.key,
      recall.session?.run,
      recall.session?.match,
      scope.conversation ?? [],
      recall.segments,
      recall.units,
    );
    if (old && sessions) {
      sessions.delete(sessionId);
      this.#sessionBytes -= old.bytes;
    }
    // Too large to keep whole: nothing is kept rather than a run that could never grow.
    if (run.bytes > this.maxBytes / 4) return;
    if (!sessions) {
      sessions = new Map();
      this.#sessions.set(orgId, sessions);
    }
    sessions.set(sessionId, run);
    this.#sessionBytes += run.bytes;
    this.#sessionBytes = evict(this.#sessions, sessions, this.#sessionBytes, this.maxBytes / 2);
  }
}

/** The text-level key of a unit: its text, then the facts a detector may read. */
function textSlot(scope: MemoScope, unit: Unit): TextSlot {
  const first = unit.segments[0];
  const single = unit.segments.length === 1;
  const text = single
    ? (first?.text ?? "")
    : unit.segments.map((s) => `${s.argumentKey}\u0002${s.text}`).join("\u0003");
  const argumentKey = single ? (first?.argumentKey ?? "") : "";
  const facts = `${first?.channel}\u0001${first?.addressable ? 1 : 0}\u0001${first?.toolName ?? ""}\u0001${argumentKey}\u0001${scope.kind}\u0001${scope.set.key}`;
  return { text, facts, entry: undefined, complete: false };
}

/** A text-level hit, re-addressed to the unit's path and call; gaps where nothing is known. */
function readdressed(known: UnitResults | undefined, unit: Unit, size: number): UnitResults {
  if (!known) return new Array<readonly Finding[] | undefined>(size).fill(undefined);
  return addressedTo(known, unit);
}

/** Results judged on a unit of another body, as findings of `unit`: its path and call (copies only where they differ). */
export function addressedTo(known: UnitResults, unit: Unit): UnitResults {
  const callId = unit.segments[0]?.callId ?? "";
  return known.map((findings) => {
    if (!findings || findings.length === 0) return findings === undefined ? undefined : EMPTY;
    const first = findings[0]!;
    if (first.path === unit.path && first.callId === callId) return findings;
    return findings.map((f) => ({ ...f, path: unit.path, callId }));
  });
}

/** How a hit keeps an entry from eviction: it moves to the young end of its organization's map. */
function touch<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
}

/** Drops the oldest entries, of the organization that just grew first, until within `max`; returns the bytes left. */
function evict<V extends { readonly bytes: number }>(
  orgs: Map<string, Map<string, V>>,
  growing: Map<string, V>,
  bytes: number,
  max: number,
): number {
  for (const entries of [growing, ...orgs.values()]) {
    for (const [key, entry] of entries) {
      if (bytes <= max) return bytes;
      entries.delete(key);
      bytes -= entry.bytes;
    }
  }
  return bytes;
}
