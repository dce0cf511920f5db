-- Guard's PostgreSQL schema, first version. Applied once by src/store/postgres/migrate.ts inside a
-- transaction, under an advisory lock; never edit an applied file: add a new numbered one.

-- Raw request bodies, content-addressed: every step repeats the conversation, so a body is stored
-- once however many events reference it. bytea keeps the exact bytes the SHA-256 was taken over
-- (jsonb would reorder keys and reject \u0000; text would reject invalid UTF-8), so no body can
-- become a write that fails forever. Read it as JSON with convert_from(body, 'UTF8')::jsonb.
CREATE TABLE payloads (
  sha256     text PRIMARY KEY,
  body       bytea NOT NULL,
  bytes      integer NOT NULL,
  stored_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per accepted evaluate. seq breaks ties between events received in the same millisecond
-- so "newest first" is stable.
CREATE TABLE events (
  event_id          text PRIMARY KEY,
  seq               bigint GENERATED ALWAYS AS IDENTITY,
  received_at       timestamptz NOT NULL,
  org_id            text NOT NULL,
  key_id            text NOT NULL,
  kind              text NOT NULL,
  step_id           text NOT NULL,
  agent_id          text NOT NULL,
  agent_id_derived  boolean NOT NULL,
  agent_type        text NOT NULL,
  agent_user        text NOT NULL,
  workspace         text NOT NULL,
  llm_protocol      text NOT NULL,
  integration       text,
  connection        text,
  session_hint      text,
  payload_sha256    text NOT NULL REFERENCES payloads (sha256),
  payload_bytes     integer NOT NULL,
  session           jsonb,
  verdict           jsonb NOT NULL
);
-- Time-range queries per organization (events tail, coverage, reconciliation).
CREATE INDEX events_org_received_idx ON events (org_id, received_at DESC, seq DESC);
-- The two halves of a step, which may land on different replicas.
CREATE INDEX events_org_step_idx ON events (org_id, step_id);
CREATE INDEX events_payload_idx ON events (payload_sha256);

-- id is minted by the writer when the record is queued, so a batch retried after a commit whose
-- acknowledgement was lost inserts nothing twice.
CREATE TABLE audit (
  id        text PRIMARY KEY,
  seq       bigint GENERATED ALWAYS AS IDENTITY,
  at        timestamptz NOT NULL,
  org_id    text NOT NULL,
  key_id    text NOT NULL,
  action    text NOT NULL,
  field     text NOT NULL,
  asserted  text NOT NULL,
  expected  text NOT NULL
);
CREATE INDEX audit_org_at_idx ON audit (org_id, at DESC, seq DESC);

CREATE TABLE heartbeats (
  id           text PRIMARY KEY,
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  at           timestamptz NOT NULL,
  org_id       text NOT NULL,
  key_id       text NOT NULL,
  integration  text,
  agent_id     text,
  interval_s   double precision,
  counters     jsonb
);
-- Coverage asks for the latest beat per integration/agent.
CREATE INDEX heartbeats_org_source_idx ON heartbeats (org_id, integration, agent_id, at DESC);

-- Where an agent was first placed; the first placement wins (inserted ON CONFLICT DO NOTHING).
CREATE TABLE agents (
  org_id      text NOT NULL,
  agent_id    text NOT NULL,
  workspace   text NOT NULL,
  agent_type  text NOT NULL,
  first_seen  timestamptz NOT NULL,
  seq         bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (org_id, agent_id)
);

-- Placeholder registry: a token names one value per agent, and a value has one token per agent.
CREATE TABLE placeholders (
  org_id       text NOT NULL,
  agent_id     text NOT NULL,
  placeholder  text NOT NULL,
  value_mac    text NOT NULL,
  sealed       text NOT NULL,
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (org_id, agent_id, placeholder),
  UNIQUE (org_id, agent_id, value_mac)
);

-- A record PostgreSQL refuses for what it contains (not for being unreachable) is parked here,
-- whole, instead of being retried forever and blocking every write queued behind it.
CREATE TABLE guard_write_failures (
  op_id      text PRIMARY KEY,
  kind       text NOT NULL,
  record     text NOT NULL,
  sqlstate   text,
  error      text NOT NULL,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
