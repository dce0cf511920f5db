import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Store, StoreStats } from "../store.js";
import { placeholderToken } from "../../placeholders/tokens.js";
import type {
  AgentRecord,
  AuditRecord,
  EventRecord,
  HeartbeatRecord,
  PlaceholderClaim,
  PlaceholderRecord,
} from "../records.js";
import type { WhitelistRecord } from "../../whitelist/whitelist.js";
import type { EventFilter, EventQuery, HeartbeatSource } from "../queries.js";
import { matchesEvent } from "../event-filter.js";
import { HeartbeatIndex } from "./heartbeat-index.js";
import { Journal } from "./journal.js";
import { readJournal } from "./read-lines.js";

const LF = 0x0a;

/** JSON whitespace: the only bytes a JSON text may hold outside its strings and tokens. */
function isJsonSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * The payloads journal line of a raw body. The body was parsed as JSON before it got here, so
 * it embeds as a JSON value verbatim, as bytes, never decoded (`body`). A body with a line
 * break between its tokens (pretty-printed) would split the line, so it is kept as its exact
 * text in a JSON string instead (`body_text`): either way the bytes as sent can be recovered.
 */
function payloadLine(sha256: string, raw: Buffer): string | readonly (string | Buffer)[] {
  let start = 0;
  let end = raw.length;
  while (start < end && isJsonSpace(raw[start])) start++;
  while (end > start && isJsonSpace(raw[end - 1])) end--;
  const body = raw.subarray(start, end);
  if (body.indexOf(LF) >= 0) return `{"sha256":"${sha256}","body_text":${JSON.stringify(raw.toString("utf8"))}}`;
  return [`{"sha256":"${sha256}","body":`, body, "}"];
}

/**
 * The embedded default: JSON-lines journals in a data folder, no server needed. Raw bodies
 * are content-addressed: a body is written once however many events repeat it, and events
 * reference it by SHA-256, so storage grows with new content rather than with retries.
 */
export class EmbeddedStore implements Store {
  readonly #events: Journal;
  readonly #payloads: Journal;
  readonly #audit: Journal;
  readonly #heartbeats: Journal;
  readonly #agents: Journal;
  readonly #placeholders: Journal;
  readonly #whitelist: Journal;
  readonly #knownPayloads = new Set<string>();
  readonly #placeholderByMac = new Map<string, PlaceholderRecord>();
  readonly #placeholderByToken = new Map<string, PlaceholderRecord>();
  readonly #lastOrdinal = new Map<string, number>();
  readonly #agentIndex = new Map<string, AgentRecord>();
  readonly #heartbeatIndex = new HeartbeatIndex();
  #accepted = 0;

  private constructor(readonly dir: string) {
    this.#events = new Journal(join(dir, "events.jsonl"));
    this.#payloads = new Journal(join(dir, "payloads.jsonl"));
    this.#audit = new Journal(join(dir, "audit.jsonl"));
    this.#heartbeats = new Journal(join(dir, "heartbeats.jsonl"));
    this.#agents = new Journal(join(dir, "agents.jsonl"));
    this.#placeholders = new Journal(join(dir, "placeholders.jsonl"));
    this.#whitelist = new Journal(join(dir, "whitelist.jsonl"));
  }

  static open(dir: string): EmbeddedStore {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const store = new EmbeddedStore(dir);
    for (const { sha256 } of readJournal<{ sha256: string }>(store.#payloads.path).records)
      store.#knownPayloads.add(sha256);
    for (const record of readJournal<PlaceholderRecord>(store.#placeholders.path).records) store.#indexPlaceholder(record);
    for (const agent of readJournal<AgentRecord>(store.#agents.path).records) {
      const key = `${agent.org_id}\0${agent.agent_id}`;
      if (!store.#agentIndex.has(key)) store.#agentIndex.set(key, agent);
    }
    for (const beat of readJournal<HeartbeatRecord>(store.#heartbeats.path).records) store.#heartbeatIndex.add(beat);
    return store;
  }

  get #journals(): Journal[] {
    return [this.#events, this.#payloads, this.#audit, this.#heartbeats, this.#agents, this.#placeholders, this.#whitelist];
  }

  async recordEvent(event: EventRecord, payload: Buffer): Promise<void> {
    this.#accepted++;
    if (!this.#knownPayloads.has(event.payload_sha256)) {
      this.#knownPayloads.add(event.payload_sha256);
      await this.#payloads.append(payloadLine(event.payload_sha256, payload));
    }
    await this.#events.append(JSON.stringify(event));
  }

  recordAudit(record: AuditRecord): Promise<void> {
    return this.#audit.append(JSON.stringify(record));
  }

  recordHeartbeat(record: HeartbeatRecord): Promise<void> {
    this.#heartbeatIndex.add(record);
    return this.#heartbeats.append(JSON.stringify(record));
  }

  async claimAgent(record: AgentRecord): Promise<AgentRecord> {
    const key = `${record.org_id}\0${record.agent_id}`;
    const known = this.#agentIndex.get(key);
    if (known) return known;
    this.#agentIndex.set(key, record);
    await this.#agents.append(JSON.stringify(record));
    return record;
  }

  /** One process owns the embedded store, so the in-memory index decides; the journal keeps it. */
  async claimPlaceholder(claim: PlaceholderClaim): Promise<string> {
    const agentKey = `${claim.org_id}\0${claim.agent_id}`;
    const known = this.#placeholderByMac.get(`${agentKey}\0${claim.value_mac}`);
    if (known) return known.placeholder;
    const ordinalKey = `${agentKey}\0${claim.kind}`;
    const ordinal = (this.#lastOrdinal.get(ordinalKey) ?? 0) + 1;
    const record: PlaceholderRecord = { ...claim, ordinal, placeholder: placeholderToken(claim.kind, ordinal) };
    this.#indexPlaceholder(record);
    await this.#placeholders.append(JSON.stringify(record));
    return record.placeholder;
  }

  async findPlaceholder(orgId: string, agentId: string, placeholder: string): Promise<PlaceholderRecord | undefined> {
    return this.#placeholderByToken.get(`${orgId}\0${agentId}\0${placeholder}`);
  }

  #indexPlaceholder(record: PlaceholderRecord): void {
    const agentKey = `${record.org_id}\0${record.agent_id}`;
    this.#placeholderByMac.set(`${agentKey}\0${record.value_mac}`, record);
    this.#placeholderByToken.set(`${agentKey}\0${record.placeholder}`, record);
    const ordinalKey = `${agentKey}\0${record.kind}`;
    this.#lastOrdinal.set(ordinalKey, Math.max(this.#lastOrdinal.get(ordinalKey) ?? 0, record.ordinal));
  }

  async recordWhitelist(record: WhitelistRecord): Promise<void> {
    await this.#whitelist.append(JSON.stringify(record));
    // Operators expect a whitelisted fingerprint to hold from the next evaluate on.
    await this.#whitelist.flush();
  }

  async loadWhitelist(): Promise<WhitelistRecord[]> {
    return readJournal<WhitelistRecord>(this.#whitelist.path).records;
  }

  async loadAgents(): Promise<AgentRecord[]> {
    return [...this.#agentIndex.values()];
  }

  async recentEvents(orgId: string, limit: number): Promise<EventRecord[]> {
    await this.#events.flush();
    const all = readJournal<EventRecord>(this.#events.path).records;
    return all.filter((e) => e.org_id === orgId).slice(-limit).reverse();
  }

  async recentAudits(orgId: string, limit: number): Promise<AuditRecord[]> {
    await this.#audit.flush();
    const all = readJournal<AuditRecord>(this.#audit.path).records;
    return all.filter((e) => e.org_id === orgId).slice(-limit).reverse();
  }

  /** Scans the journal: the embedded store serves one machine, where a scan is the index. */
  async queryEvents(query: EventQuery): Promise<EventRecord[]> {
    await this.#events.flush();
    const matching = readJournal<EventRecord>(this.#events.path).records.filter(matchesEvent(query));
    // The journal is in arrival order; a stable sort keeps that order between equal instants.
    matching.sort((a, b) => Date.parse(a.received_at) - Date.parse(b.received_at));
    if (query.order === "oldest") return matching.slice(0, query.limit);
    return matching.slice(-query.limit).reverse();
  }

  async countEvents(filter: EventFilter): Promise<number> {
    await this.#events.flush();
    return readJournal<EventRecord>(this.#events.path).records.filter(matchesEvent(filter)).length;
  }

  /** From memory: every beat this store has seen (the journal's at open, then each new one). */
  async heartbeatSources(orgId?: string): Promise<HeartbeatSource[]> {
    return this.#heartbeatIndex.sources(orgId);
  }

  stats(): StoreStats {
    return {
      accepted: this.#accepted,
      written: this.#events.written,
      queued: this.#events.queued,
      write_errors: this.#journals.reduce((n, j) => n + j.writeErrors, 0),
    };
  }

  async flush(): Promise<void> {
    await Promise.all(this.#journals.map((j) => j.flush()));
  }

  async close(): Promise<void> {
    // Anything a failed asynchronous write put back goes out synchronously; then the files close.
    await Promise.all(this.#journals.map((j) => j.close()));
  }
}
