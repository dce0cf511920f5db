-- Whitelist changes (spec 2.4 rule 4), kept as the embedded store keeps them: an append-only list
-- replayed in order, the last word on a fingerprint winning. Written through, not queued: the
-- `guard whitelist` command must see its change land before it returns.
CREATE TABLE whitelist_changes (
  seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at      timestamptz NOT NULL,
  org_id  text NOT NULL,
  fp      text NOT NULL,
  op      text NOT NULL CHECK (op IN ('add', 'remove')),
  note    text
);
