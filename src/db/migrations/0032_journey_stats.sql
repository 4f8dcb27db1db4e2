-- Journeys: the stats counters move from the journey row to a row of their own. The runner, the
-- enrolments and the exits change the counters; a status change, an edit or a delete locks the
-- journey row. With both on one row, a batch of runs (runs, then the journey's counters) and an
-- archive (the journey, then its runs) locked in opposite orders and could deadlock. Now every
-- writer locks in one order: journey row, then runs (by id), then this row (by journey id).
CREATE TABLE journey_stats (
  journey_id   text PRIMARY KEY REFERENCES journeys (id) ON DELETE CASCADE,
  team_id      integer NOT NULL,
  enrolled     integer NOT NULL DEFAULT 0,
  active       integer NOT NULL DEFAULT 0,
  completed    integer NOT NULL DEFAULT 0,
  exited       integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  -- step id -> emails sent by that EMAIL step
  sent_by_step jsonb NOT NULL DEFAULT '{}'
);

INSERT INTO journey_stats (journey_id, team_id, enrolled, active, completed, exited, failed, sent_by_step)
SELECT id, team_id, enrolled, active, completed, exited, failed, sent_by_step FROM journeys;

ALTER TABLE journeys
  DROP COLUMN enrolled,
  DROP COLUMN active,
  DROP COLUMN completed,
  DROP COLUMN exited,
  DROP COLUMN failed,
  DROP COLUMN sent_by_step;

-- Exits at the moment of the event: a contact unsubscribed or deleted ends its ACTIVE runs in the
-- same transaction, found by contact.
CREATE INDEX journey_runs_active_contact ON journey_runs (team_id, contact_id) WHERE status = 'ACTIVE';
