import { randomUUID } from "node:crypto";
import pg from "pg";
import type { WhitelistRecord } from "../../whitelist/whitelist.js";
import type {
  AgentRecord,
  AuditRecord,
  EventRecord,
  HeartbeatRecord,
  PlaceholderClaim,
  PlaceholderRecord,
} from "../records.js";
import { placeholderToken } from "../../placeholders/tokens.js";
import type { EventFilter, EventQuery, HeartbeatSource } from "../queries.js";
import type { Store, StoreStats } from "../store.js";
import { BatchWriter } from "./batch-writer.js";
import { migrateWith } from "./migrate.js";
import { readMigrations } from "./migrations.js";
import type { WriteOp } from "./ops.js";
import {
  eventWhere,
  HEARTBEAT_SOURCE_SELECT,
  type HeartbeatSourceRow,
  heartbeatSourceFromRow,
} from "./queries.js";
import { checkout, isDataError, isUnreachable, pgText } from "./sql.js";
import {
  type AgentRow,
  type AuditRow,
  agentFromRow,
  agentRow,
  auditFromRow,
  EVENT_SELECT,
  type EventRow,
  eventFromRow,
  type PlaceholderRow,
  type WhitelistRow,
  whitelistFromRow,
} from "./tables.js";
import { WriteBehind, type WriteBehindOptions } from "./write-behind.js";

/** What the store reports to its owner (the app wires it to the structured log and metrics). */
export interface PostgresStoreLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface PostgresStoreOptions extends WriteBehindOptions {
  /** Run the migrations at open (default true); off for a replica that must not touch the schema. */
  readonly migrate?: boolean;
  readonly migrationsDir?: string;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /** How long to wait for a connection before an attempt counts as failed (default 5 s). */
  readonly connectTimeoutMs?: number;
  /**
   * How long any one statement may go unanswered before it fails (default 30 s). A server that
   * dies without closing its connections (power loss, a partition) would otherwise hold a write
   * forever, and every record queued behind it; a write that times out is retried, harmlessly
   * (every insert is idempotent), on a fresh connection.
   */
  readonly queryTimeoutMs?: number;
  /** How long `close()` keeps retrying unwritten records before it gives up and says so (default: forever). */
  readonly closeTimeoutMs?: number;
  readonly logger?: PostgresStoreLogger;
}

/** `stats()` plus the records parked because PostgreSQL refused their content. */
export interface PostgresStoreStats extends StoreStats {
  readonly quarantined: number;
}

/** Raised by `close()` when records were still unwritten at its deadline; they were not written. */
export class StoreCloseError extends Error {
  constructor(readonly unwritten: number) {
    super(`store closed with ${unwritten} record(s) still unwritten: the database stayed unreachable`);
    this.name = "StoreCloseError";
  }
}

const silentLogger: PostgresStoreLogger = { warn() {}, error() {} };

/**
 * The production store: PostgreSQL, shared by any number of replicas. Writes are write-behind
 * (each `record*` resolves once queued; a bounded queue gives back-pressure) and go out in
 * batches, one transaction each; an unreachable database delays them, it never drops them.
 */
export class PostgresStore implements Store {
  readonly #pool: pg.Pool;
  readonly #queue: WriteBehind<WriteOp>;
  readonly #closeTimeoutMs: number | undefined;
  readonly #logger: PostgresStoreLogger;
  #accepted = 0;
  #written = 0;
  #quarantined = 0;
  #closed = false;

  private constructor(pool: pg.Pool, options: PostgresStoreOptions) {
    const logger = options.logger ?? silentLogger;
    this.#logger = logger;
    this.#pool = pool;
    this.#closeTimeoutMs = options.closeTimeoutMs;
    // An idle connection dropped by the server is reported here; without a listener it would crash the process.
    pool.on("error", (error) => logger.warn({ err: error.message }, "postgres idle connection lost"));
    const writer = new BatchWriter(pool, (op, error) =>
      logger.error(
        { op_id: op.id, kind: op.kind, err: (error as Error).message },
        "postgres refused a record; parked in guard_write_failures",
      ),
    );
    this.#queue = new WriteBehind<WriteOp>(
      async (batch) => {
        const parked = await writer.write(batch);
        for (const op of batch) {
          if (parked.has(op.id)) this.#quarantined++;
          else if (op.kind === "event") this.#written++;
        }
      },
      (error, batchSize, retryInMs) =>
        logger.warn(
          {
            err: (error as Error).message,
            batch: batchSize,
            retry_in_ms: retryInMs,
            queued: this.#queue.queued.length,
          },
          "postgres write failed; batch kept for retry",
        ),
      options,
    );
  }

  /** Connects to `url` (a `postgres://` connection string) and, unless told not to, migrates first. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      query_timeout: options.queryTimeoutMs ?? 30_000,
      // TCP keepalives let the kernel notice a dead server on an idle pooled connection.
      keepAlive: true,
      application_name: "guard",
    });
    if (options.migrate ?? true) {
      try {
        const { client, release } = await checkout(pool);
        let failure: unknown;
        try {
          await migrateWith(client, readMigrations(options.migrationsDir));
        } catch (error) {
          failure = error;
          throw error;
        } finally {
          release(failure);
        }
      } catch (error) {
        await pool.end();
        throw error;
      }
    }
    return new PostgresStore(pool, options);
  }

  async recordEvent(event: EventRecord, payload: Buffer): Promise<void> {
    this.#accepting();
    this.#accepted++;
    await this.#queue.push({ kind: "event", id: event.event_id, event, payload });
  }

  async recordAudit(record: AuditRecord): Promise<void> {
    this.#accepting();
    await this.#queue.push({ kind: "audit", id: randomUUID(), record });
  }

  async recordHeartbeat(record: HeartbeatRecord): Promise<void> {
    this.#accepting();
    await this.#queue.push({ kind: "heartbeat", id: randomUUID(), record });
  }

  /**
   * Written through: every replica must see one placement, the first. While the database is
   * unreachable the decision must not wait for it: the placement made here holds for this
   * replica, and is queued to be written when the database returns (where a placement another
   * replica wrote first wins for everyone who reads it after).
   */
  async claimAgent(record: AgentRecord): Promise<AgentRecord> {
    this.#accepting();
    try {
      return await this.#claimAgent(record);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      this.#logger.warn(
        { org_id: record.org_id, agent_id: record.agent_id, workspace: record.workspace, err: (error as Error).message },
        "postgres unreachable: agent placed provisionally, the claim is queued",
      );
      await this.#queue.push({ kind: "agent", id: randomUUID(), record });
      return record;
    }
  }

  async #claimAgent(record: AgentRecord): Promise<AgentRecord> {
    const result = await this.#pool.query<AgentRow>(
      `WITH inserted AS (
         INSERT INTO agents (org_id, agent_id, workspace, agent_type, first_seen) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING
         RETURNING org_id, agent_id, workspace, agent_type, first_seen)
       SELECT * FROM inserted
       UNION ALL
       SELECT org_id, agent_id, workspace, agent_type, first_seen FROM agents
        WHERE org_id = $1 AND agent_id = $2 AND NOT EXISTS (SELECT 1 FROM inserted)`,
      agentRow(record),
    );
    const row = result.rows[0];
    if (row) return agentFromRow(row);
    // A concurrent claim won after this statement's snapshot was taken: read it anew.
    const winner = await this.#pool.query<AgentRow>(
      "SELECT org_id, agent_id, workspace, agent_type, first_seen FROM agents WHERE org_id = $1 AND agent_id = $2",
      [pgText(record.org_id), pgText(record.agent_id)],
    );
    const held = winner.rows[0];
    if (!held) throw new Error(`agent ${record.agent_id} neither inserted nor found`);
    return agentFromRow(held);
  }

  /**
   * Claimed in its own transaction, not queued: replicas must agree on a token before it is
   * handed out. An advisory lock per agent serialises concurrent claims of one agent; the
   * unique (org, agent, value_mac) constraint backs it. Only values never seen before get here.
   */
  async claimPlaceholder(claim: PlaceholderClaim): Promise<string> {
    this.#accepting();
    const { client, release } = await checkout(this.#pool);
    let failure: unknown;
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", [`${pgText(claim.org_id)}\u001f${pgText(claim.agent_id)}`]);
      const existing = await client.query<{ placeholder: string }>(
        "SELECT placeholder FROM placeholders WHERE org_id = $1 AND agent_id = $2 AND value_mac = $3",
        [pgText(claim.org_id), pgText(claim.agent_id), claim.value_mac],
      );
      let placeholder = existing.rows[0]?.placeholder;
      if (placeholder === undefined) {
        const next = await client.query<{ ordinal: number }>(
          "SELECT COALESCE(MAX(ordinal), 0) + 1 AS ordinal FROM placeholders WHERE org_id = $1 AND agent_id = $2 AND kind = $3",
          [pgText(claim.org_id), pgText(claim.agent_id), claim.kind],
        );
        const ordinal = Number(next.rows[0]?.ordinal ?? 1);
        placeholder = placeholderToken(claim.kind, ordinal);
        await client.query(
          "INSERT INTO placeholders (org_id, agent_id, placeholder, value_mac, sealed, kind, ordinal) VALUES ($1, $2, $3, $4, $5, $6, $7)",
          [pgText(claim.org_id), pgText(claim.agent_id), placeholder, claim.value_mac, claim.sealed, claim.kind, ordinal],
        );
      }
      await client.query("COMMIT");
      return placeholder;
    } catch (error) {
      failure = error;
      if (isDataError(error)) await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      release(failure);
    }
  }

  async findPlaceholder(orgId: string, agentId: string, placeholder: string): Promise<PlaceholderRecord | undefined> {
    const result = await this.#pool.query<PlaceholderRow>(
      "SELECT org_id, agent_id, kind, ordinal, placeholder, value_mac, sealed FROM placeholders WHERE org_id = $1 AND agent_id = $2 AND placeholder = $3",
      [pgText(orgId), pgText(agentId), placeholder],
    );
    const row = result.rows[0];
    return row ? { ...row } : undefined;
  }

  /** Written through, not queued: an operator's change must hold from the next evaluate on, on every replica. */
  async recordWhitelist(record: WhitelistRecord): Promise<void> {
    this.#accepting();
    await this.#pool.query(
      "INSERT INTO whitelist_changes (at, org_id, fp, op, note) VALUES ($1, $2, $3, $4, $5)",
      [record.at, pgText(record.org_id), pgText(record.fp), record.op, pgText(record.note) ?? null],
    );
  }

  async loadWhitelist(): Promise<WhitelistRecord[]> {
    const result = await this.#pool.query<WhitelistRow>(
      "SELECT at, org_id, fp, op, note FROM whitelist_changes ORDER BY seq",
    );
    return result.rows.map(whitelistFromRow);
  }

  async loadAgents(): Promise<AgentRecord[]> {
    const result = await this.#pool.query<AgentRow>(
      "SELECT org_id, agent_id, workspace, agent_type, first_seen FROM agents ORDER BY seq",
    );
    return result.rows.map(agentFromRow);
  }

  /** Newest first by arrival time; what this replica queued is written first, so it is included. */
  async recentEvents(orgId: string, limit: number): Promise<EventRecord[]> {
    await this.flush();
    const result = await this.#pool.query<EventRow>(
      `SELECT ${EVENT_SELECT} FROM events WHERE org_id = $1 ORDER BY received_at DESC, seq DESC LIMIT $2`,
      [orgId, limit],
    );
    return result.rows.map(eventFromRow);
  }

  async recentAudits(orgId: string, limit: number): Promise<AuditRecord[]> {
    await this.flush();
    const result = await this.#pool.query<AuditRow>(
      `SELECT at, org_id, key_id, action, field, asserted, expected FROM audit
       WHERE org_id = $1 ORDER BY at DESC, seq DESC LIMIT $2`,
      [orgId, limit],
    );
    return result.rows.map(auditFromRow);
  }

  /** Flushes this replica's queue first, so what it accepted is included. */
  async queryEvents(query: EventQuery): Promise<EventRecord[]> {
    await this.flush();
    const where = eventWhere(query);
    const direction = query.order === "oldest" ? "ASC" : "DESC";
    const result = await this.#pool.query<EventRow>(
      `SELECT ${EVENT_SELECT} FROM events ${where.sql}
       ORDER BY received_at ${direction}, seq ${direction} LIMIT $${where.values.length + 1}`,
      [...where.values, query.limit],
    );
    return result.rows.map(eventFromRow);
  }

  async countEvents(filter: EventFilter): Promise<number> {
    await this.flush();
    const where = eventWhere(filter);
    const result = await this.#pool.query<{ n: string }>(`SELECT count(*) AS n FROM events ${where.sql}`, where.values);
    return Number(result.rows[0]?.n ?? 0);
  }

  /** One row per source, kept by the trigger of migrations/004; the queue is flushed first. */
  async heartbeatSources(orgId?: string): Promise<HeartbeatSource[]> {
    await this.flush();
    const result =
      orgId === undefined
        ? await this.#pool.query<HeartbeatSourceRow>(`${HEARTBEAT_SOURCE_SELECT} ORDER BY org_id, last_at`)
        : await this.#pool.query<HeartbeatSourceRow>(
            `${HEARTBEAT_SOURCE_SELECT} WHERE org_id = $1 ORDER BY last_at`,
            [pgText(orgId)],
          );
    return result.rows.map(heartbeatSourceFromRow);
  }

  /** Event counts (as the embedded store reports them): accepted = written + queued + quarantined. */
  stats(): PostgresStoreStats {
    return {
      accepted: this.#accepted,
      written: this.#written,
      queued: this.#queue.queued.reduce((n, op) => n + (op.kind === "event" ? 1 : 0), 0),
      write_errors: this.#queue.writeErrors,
      quarantined: this.#quarantined,
    };
  }

  /** Writes everything queued so far; rejects if the database fails meanwhile (nothing is dropped). */
  flush(): Promise<void> {
    return this.#queue.flush();
  }

  /**
   * Stops accepting, keeps retrying until every queued record is written (or `closeTimeoutMs`
   * passes: then rejects with {@link StoreCloseError}), and ends the pool.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await withDeadline(
        this.#queue.drain(),
        this.#closeTimeoutMs,
        () => new StoreCloseError(this.#queue.queued.length),
      );
    } finally {
      this.#queue.stop();
      await this.#pool.end();
    }
  }

  #accepting(): void {
    // Accepting after close would queue a record nobody will ever write.
    if (this.#closed) throw new Error("store is closed");
  }
}

async function withDeadline(
  work: Promise<void>,
  ms: number | undefined,
  onTimeout: () => Error,
): Promise<void> {
  if (ms === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
