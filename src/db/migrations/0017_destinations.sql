-- Direct delivery (src/destinations, src/adapters/mail-transport/direct.ts): what every worker
-- process of a deployment must agree on about each destination (a recipient domain's MX host set).

-- The connection slots held to each destination: a process holds one per open session, so the
-- per-destination limit (HERALD_DIRECT_MAX_CONNECTIONS) holds across processes. A slot whose lease
-- lapsed (its process died) is free again.
CREATE TABLE destination_slots (
  destination  text NOT NULL,
  slot         integer NOT NULL CHECK (slot >= 0),
  holder       text NOT NULL,
  lease_until  timestamptz NOT NULL,
  PRIMARY KEY (destination, slot)
);
CREATE INDEX destination_slots_holder ON destination_slots (holder);

-- Destinations backed off after trouble (a 421, refused connections, timeouts, rate answers): fewer
-- connections, and while paused_until is ahead no new message. The row goes when it has recovered.
CREATE TABLE destination_backoffs (
  destination   text PRIMARY KEY,
  paused_until  timestamptz NOT NULL,
  connections   integer NOT NULL CHECK (connections >= 1),
  failures      integer NOT NULL CHECK (failures >= 0),
  reason        text NOT NULL,
  updated_at    timestamptz NOT NULL
);

-- An email whose delivery was deferred and is waiting for its next attempt reads DELIVERY_DELAYED
-- (its newest event) while its status stays QUEUED, the delivery worker's own.
ALTER TABLE emails ADD COLUMN delivery_delayed boolean NOT NULL DEFAULT false;
