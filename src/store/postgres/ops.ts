import type {
  AgentRecord,
  AuditRecord,
  EventRecord,
  HeartbeatRecord,
} from "../records.js";

/**
 * One queued write. `id` identifies it across retries: the event id for events, a random id minted
 * at queue time for the rest, so a retried batch and a parked failure are each written once.
 */
export type WriteOp =
  | { readonly kind: "event"; readonly id: string; readonly event: EventRecord; readonly payload: Buffer }
  | { readonly kind: "audit"; readonly id: string; readonly record: AuditRecord }
  | { readonly kind: "heartbeat"; readonly id: string; readonly record: HeartbeatRecord }
  /** A placement decided while the database was unreachable, written when it returns (the first one there wins). */
  | { readonly kind: "agent"; readonly id: string; readonly record: AgentRecord };

/** The op as one self-contained JSON document (the body as base64), for the write-failures table. */
export function describeOp(op: WriteOp): unknown {
  return op.kind === "event"
    ? { kind: op.kind, id: op.id, event: op.event, payload_base64: op.payload.toString("base64") }
    : op;
}
