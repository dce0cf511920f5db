-- Placeholders are claimed, not queued: two replicas must never mint the same token for two
-- values of one agent, so a claim runs in its own transaction under an advisory lock per agent.
-- The kind and ordinal are kept as columns so the next ordinal is one indexed MAX away.
ALTER TABLE placeholders ADD COLUMN kind text;
ALTER TABLE placeholders ADD COLUMN ordinal integer;
UPDATE placeholders
   SET kind = substring(placeholder from '^\$\{X_([A-Z0-9_]+)_[0-9]+\}$'),
       ordinal = substring(placeholder from '_([0-9]+)\}$')::integer;
ALTER TABLE placeholders ALTER COLUMN kind SET NOT NULL;
ALTER TABLE placeholders ALTER COLUMN ordinal SET NOT NULL;
CREATE INDEX placeholders_kind_ordinal ON placeholders (org_id, agent_id, kind, ordinal);
