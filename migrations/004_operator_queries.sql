-- What the operator CLI and the coverage monitor ask: events by agent, integration, session and
-- time; and the latest heartbeat per source without scanning every beat ever received.

-- `guard events tail` across organizations, newest first.
CREATE INDEX events_received_idx ON events (received_at DESC, seq DESC);
-- `guard events tail --agent`, and sessions of one agent.
CREATE INDEX events_org_agent_received_idx ON events (org_id, agent_id, received_at DESC);
-- Coverage reconciliation counts an integration's events in a time window.
CREATE INDEX events_org_integration_received_idx ON events (org_id, integration, received_at);
-- `guard session <id>` reads one session's events.
CREATE INDEX events_org_session_idx ON events (org_id, (session ->> 'session_id'));

-- One row per heartbeat source (org, integration, agent; '' where the beats name none), kept by a
-- trigger so every replica's beats land in it however the batch writer groups them. Counters are
-- cumulative per integration process: a fall of events_sent marks a restart, and run_since keeps
-- the beat before it, after which the latest counters count.
CREATE TABLE heartbeat_sources (
  org_id              text NOT NULL,
  source_integration  text NOT NULL,
  source_agent        text NOT NULL,
  integration         text,
  agent_id            text,
  first_at            timestamptz NOT NULL,
  last_at             timestamptz NOT NULL,
  last_key_id         text NOT NULL,
  interval_s          double precision,
  counters            jsonb,
  beats               bigint NOT NULL,
  run_since           timestamptz,
  PRIMARY KEY (org_id, source_integration, source_agent)
);

-- The events_sent counter of a beat, or NULL when it carries none (or not a number).
CREATE FUNCTION guard_events_sent(counters jsonb) RETURNS double precision
  LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(counters -> 'events_sent') = 'number'
                THEN (counters ->> 'events_sent')::double precision END
  $$;

-- Beats can arrive out of order across replicas: only a later beat replaces the latest one.
CREATE FUNCTION guard_heartbeat_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO heartbeat_sources AS s (org_id, source_integration, source_agent, integration, agent_id,
                                      first_at, last_at, last_key_id, interval_s, counters, beats, run_since)
  VALUES (NEW.org_id, coalesce(NEW.integration, ''), coalesce(NEW.agent_id, ''), NEW.integration, NEW.agent_id,
          NEW.at, NEW.at, NEW.key_id, NEW.interval_s, NEW.counters, 1, NULL)
  ON CONFLICT (org_id, source_integration, source_agent) DO UPDATE SET
    beats = s.beats + 1,
    first_at = least(s.first_at, EXCLUDED.first_at),
    run_since = CASE WHEN EXCLUDED.last_at >= s.last_at
                      AND guard_events_sent(EXCLUDED.counters) < guard_events_sent(s.counters)
                     THEN s.last_at ELSE s.run_since END,
    last_key_id = CASE WHEN EXCLUDED.last_at >= s.last_at THEN EXCLUDED.last_key_id ELSE s.last_key_id END,
    interval_s = CASE WHEN EXCLUDED.last_at >= s.last_at THEN EXCLUDED.interval_s ELSE s.interval_s END,
    counters = CASE WHEN EXCLUDED.last_at >= s.last_at THEN EXCLUDED.counters ELSE s.counters END,
    last_at = greatest(s.last_at, EXCLUDED.last_at);
  RETURN NULL;
END
$$;

CREATE TRIGGER heartbeats_source AFTER INSERT ON heartbeats
  FOR EACH ROW EXECUTE FUNCTION guard_heartbeat_source();

-- Beats recorded before this migration: their latest beat and count (restarts among them are not
-- reconstructed; the next restart is marked as it happens).
INSERT INTO heartbeat_sources (org_id, source_integration, source_agent, integration, agent_id,
                               first_at, last_at, last_key_id, interval_s, counters, beats, run_since)
SELECT DISTINCT ON (org_id, coalesce(integration, ''), coalesce(agent_id, ''))
       org_id, coalesce(integration, ''), coalesce(agent_id, ''), integration, agent_id,
       min(at) OVER w, at, key_id, interval_s, counters, count(*) OVER w, NULL
  FROM heartbeats
WINDOW w AS (PARTITION BY org_id, coalesce(integration, ''), coalesce(agent_id, ''))
 ORDER BY org_id, coalesce(integration, ''), coalesce(agent_id, ''), at DESC, seq DESC;
