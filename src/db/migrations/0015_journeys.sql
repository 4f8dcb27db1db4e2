-- Journeys: automated email sequences over a contact book. The run row is the runner's job (status
-- ACTIVE, due at next_run_at, leased). Stats are counters in journey_stats, changed in the
-- transaction that changes a run, so reading a journey counts nothing.

CREATE TABLE journeys (
  id                       text PRIMARY KEY,
  team_id                  integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name                     text NOT NULL,
  status                   text NOT NULL CHECK (status IN ('DRAFT', 'PENDING_REVIEW', 'ACTIVE', 'PAUSED', 'ARCHIVED')),
  trigger_type             text NOT NULL CHECK (trigger_type IN ('CONTACT_ADDED', 'API')),
  -- No foreign keys: a book or segment deleted while the journey is not ACTIVE stays named here, so
  -- enrolment can answer "the contact book no longer exists".
  contact_book_id          text,
  segment_id               text,
  exit_when_leaves_segment boolean NOT NULL DEFAULT false,
  steps                    jsonb NOT NULL,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL
);

CREATE INDEX journeys_team_list ON journeys (team_id, created_at DESC, id DESC);
CREATE INDEX journeys_team_book ON journeys (team_id, contact_book_id) WHERE status = 'ACTIVE';
CREATE INDEX journeys_team_segment ON journeys (team_id, segment_id) WHERE status = 'ACTIVE';

-- A journey's stats, a row of their own: the runner, the enrolments and the exits change the
-- counters; a status change, an edit or a delete locks the journey row. With both on one row, a batch
-- of runs (runs, then the journey's counters) and an archive (the journey, then its runs) would lock
-- in opposite orders and could deadlock. Every writer locks in one order: journey row, then runs (by
-- id), then this row (by journey id).
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

CREATE TABLE journey_runs (
  id                 text PRIMARY KEY,
  team_id            integer NOT NULL,
  journey_id         text NOT NULL REFERENCES journeys (id) ON DELETE CASCADE,
  -- No foreign key: a deleted contact's run exits with CONTACT_DELETED and keeps naming it.
  contact_id         text NOT NULL,
  status             text NOT NULL CHECK (status IN ('ACTIVE', 'COMPLETED', 'EXITED', 'FAILED')),
  current_step_index integer NOT NULL DEFAULT 0,
  next_run_at        timestamptz NOT NULL,
  exit_reason        text CHECK (exit_reason IN ('UNSUBSCRIBED', 'JOURNEY_ARCHIVED', 'CONTACT_DELETED', 'SEND_FAILED', 'PROCESSING_ERROR')),
  -- [{at, stepId?, type, emailId?, until?, note?}]: what the run did, oldest first
  history            jsonb NOT NULL DEFAULT '[]',
  lease_until        timestamptz,
  attempts           integer NOT NULL DEFAULT 0,
  last_error         text,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  -- A run's EMAIL step is done when its email is sent, not when it is queued: the emails a turn
  -- queued are kept here, and the journey-runs queue does not take the run again (its next step, or
  -- its completion after the last one) while any of them is still QUEUED or SCHEDULED
  -- (src/journeys/README.md).
  awaiting_email_ids text[] NOT NULL DEFAULT '{}',
  UNIQUE (journey_id, contact_id)
);

CREATE INDEX journey_runs_due ON journey_runs (next_run_at) WHERE status = 'ACTIVE';
CREATE INDEX journey_runs_list ON journey_runs (journey_id, created_at DESC, id DESC);
-- The segment condition `journey` reads a contact's run of a journey through the UNIQUE index above.
-- Exits at the moment of the event: a contact unsubscribed or deleted ends its ACTIVE runs in the
-- same transaction, found by contact.
CREATE INDEX journey_runs_active_contact ON journey_runs (team_id, contact_id) WHERE status = 'ACTIVE';

-- CONTACT_ADDED: the contacts a write added to a followed book, one row per journey and write, in
-- the write's transaction (so none is lost); the journey-enrolments queue turns each into runs.
CREATE TABLE journey_enrolments (
  id          text PRIMARY KEY,
  team_id     integer NOT NULL,
  journey_id  text NOT NULL REFERENCES journeys (id) ON DELETE CASCADE,
  contact_ids text[] NOT NULL,
  due_at      timestamptz NOT NULL,
  lease_until timestamptz,
  attempts    integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL
);

CREATE INDEX journey_enrolments_due ON journey_enrolments (due_at);
