import type pg from "pg";
import { describeOp, type WriteOp } from "./ops.js";
import { checkout, insertRows, isDataError, pgJson, pgText } from "./sql.js";
import {
  AGENT_COLUMNS,
  AUDIT_COLUMNS,
  agentRow,
  auditRow,
  EVENT_COLUMNS,
  eventRow,
  HEARTBEAT_COLUMNS,
  heartbeatRow,
  PAYLOAD_COLUMNS,
  payloadRow,
} from "./tables.js";

/** How many body hashes are remembered as stored; beyond it the oldest are forgotten (re-sent, harmlessly). */
const KNOWN_PAYLOADS_LIMIT = 100_000;

/** Called for each record PostgreSQL refused for its content and that was parked instead. */
export type QuarantineListener = (op: WriteOp, error: unknown) => void;

/**
 * Writes a batch of queued records in one transaction: bodies first (each distinct body once,
 * `ON CONFLICT DO NOTHING`), then the events referencing them, then the other tables. Every
 * insert is idempotent, so retrying a batch whose commit went unacknowledged changes nothing.
 */
export class BatchWriter {
  readonly #pool: pg.Pool;
  readonly #onQuarantine: QuarantineListener;
  /** Bodies known to be committed, so a repeated body is not even sent again. */
  readonly #knownPayloads = new Set<string>();

  constructor(pool: pg.Pool, onQuarantine: QuarantineListener) {
    this.#pool = pool;
    this.#onQuarantine = onQuarantine;
  }

  /**
   * Writes `batch`; resolves with the ids of records parked in `guard_write_failures` (normally
   * none). Rejects, writing nothing it cannot prove, when the database is unreachable.
   */
  async write(batch: readonly WriteOp[]): Promise<Set<string>> {
    try {
      await this.#transaction(batch, true);
      return new Set();
    } catch (error) {
      if (!isDataError(error)) throw error;
    }
    // Something in the batch is refused for what it contains: find it by writing one at a time
    // (bodies always re-sent, in case the database lost one this process believed stored).
    const parked = new Set<string>();
    for (const op of batch) {
      try {
        await this.#transaction([op], false);
      } catch (error) {
        if (!isDataError(error)) throw error;
        await this.#park(op, error);
        parked.add(op.id);
      }
    }
    return parked;
  }

  async #transaction(batch: readonly WriteOp[], trustKnownPayloads: boolean): Promise<void> {
    const { client, release } = await checkout(this.#pool);
    let failure: unknown;
    try {
      await client.query("BEGIN");
      const bodies = await this.#insertAll(client, batch, trustKnownPayloads);
      await client.query("COMMIT");
      for (const sha256 of bodies) this.#remember(sha256);
    } catch (error) {
      failure = error;
      // Only a client that goes back to the pool needs its transaction rolled back; one that is
      // discarded (lost, hung, timed out) is rolled back by the server when it goes, and a
      // ROLLBACK sent on it would only wait out another timeout behind the hung statement.
      if (isDataError(error)) await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      // A client that failed for any reason but its data may be broken; the pool replaces it.
      release(failure);
    }
  }

  /** Inserts every table's rows; returns the body hashes written. */
  async #insertAll(
    client: pg.ClientBase,
    batch: readonly WriteOp[],
    trustKnownPayloads: boolean,
  ): Promise<string[]> {
    const payloads = new Map<string, Buffer>();
    const events: unknown[][] = [];
    const audits: unknown[][] = [];
    const heartbeats: unknown[][] = [];
    const agents: unknown[][] = [];
    for (const op of batch) {
      switch (op.kind) {
        case "event":
          if (!(trustKnownPayloads && this.#knownPayloads.has(op.event.payload_sha256)))
            payloads.set(op.event.payload_sha256, op.payload);
          events.push(eventRow(op.event));
          break;
        case "audit":
          audits.push(auditRow(op.id, op.record));
          break;
        case "heartbeat":
          heartbeats.push(heartbeatRow(op.id, op.record));
          break;
        case "agent":
          agents.push(agentRow(op.record));
          break;
      }
    }
    // Replicas writing the same bodies take their row locks in one order (sorted), so two batches
    // never wait on each other's bodies in a deadlock.
    const payloadRows = [...payloads]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([sha256, body]) => payloadRow(sha256, body));
    await insertRows(client, "payloads", PAYLOAD_COLUMNS, payloadRows, "ON CONFLICT (sha256) DO NOTHING");
    await insertRows(client, "events", EVENT_COLUMNS, events, "ON CONFLICT (event_id) DO NOTHING");
    await insertRows(client, "audit", AUDIT_COLUMNS, audits, "ON CONFLICT (id) DO NOTHING");
    await insertRows(client, "heartbeats", HEARTBEAT_COLUMNS, heartbeats, "ON CONFLICT (id) DO NOTHING");
    // A placement made while the database was away: one another replica wrote first holds.
    await insertRows(client, "agents", AGENT_COLUMNS, agents, "ON CONFLICT DO NOTHING");
    return [...payloads.keys()];
  }

  /** Keeps a refused record, whole, where an operator can see and repair it. */
  async #park(op: WriteOp, error: unknown): Promise<void> {
    const code = (error as { code?: unknown }).code;
    await this.#pool.query(
      `INSERT INTO guard_write_failures (op_id, kind, record, sqlstate, error)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (op_id) DO NOTHING`,
      [
        pgText(op.id),
        op.kind,
        pgJson(describeOp(op)) ?? "null",
        typeof code === "string" ? code : null,
        pgText(String((error as Error).message ?? error)),
      ],
    );
    this.#onQuarantine(op, error);
  }

  #remember(sha256: string): void {
    this.#knownPayloads.add(sha256);
    if (this.#knownPayloads.size > KNOWN_PAYLOADS_LIMIT) {
      const oldest = this.#knownPayloads.values().next().value;
      if (oldest !== undefined) this.#knownPayloads.delete(oldest);
    }
  }
}
