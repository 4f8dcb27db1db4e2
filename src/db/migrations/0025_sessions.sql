-- Dashboard sign-in and sessions (src/sessions/, issue 45). A session belongs to an email address,
-- not to one member row: members are per team, and the address's member row in the team a request
-- chooses is its principal. Every secret is stored only as a keyed hash (HMAC with a key derived from
-- HERALD_SECRET): the session token, a sign-in link's token, its code.

-- A sign-in asked for by email (a link and a 6-digit code, 15 minutes, single use: used_at ends
-- both) or minted by the operator (a link alone, no code). Until the sign-in-mail queue has sent
-- it, mail_sealed holds the link and the code encrypted (AES-GCM, key from HERALD_SECRET) and is
-- cleared once the mail is handed to the transport or given up: the mail is not stored as a team's
-- email, which the team's keys could read back.
CREATE TABLE sign_in_requests (
  id            text PRIMARY KEY,
  email         text NOT NULL,
  token_hash    bytea NOT NULL,
  code_hash     bytea,
  code_attempts integer NOT NULL DEFAULT 0,
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz,
  created_at    timestamptz NOT NULL,
  mail_sealed   text,
  mail_due_at   timestamptz NOT NULL,
  lease_until   timestamptz,
  mail_attempts integer NOT NULL DEFAULT 0,
  mail_error    text
);
CREATE UNIQUE INDEX sign_in_requests_token ON sign_in_requests (token_hash);
CREATE INDEX sign_in_requests_email ON sign_in_requests (email, created_at DESC);
CREATE INDEX sign_in_requests_mail_due ON sign_in_requests (mail_due_at) WHERE mail_sealed IS NOT NULL;
CREATE INDEX sign_in_requests_created ON sign_in_requests (created_at);

CREATE TABLE sessions (
  id           text PRIMARY KEY,
  -- lower-case; the member rows with this address are the session's teams
  email        text NOT NULL,
  token_hash   bytea NOT NULL,
  user_agent   text,
  created_at   timestamptz NOT NULL,
  -- written at most once a minute; 14 days without a request ends the session
  last_seen_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX sessions_token ON sessions (token_hash);
CREATE INDEX sessions_email ON sessions (email, created_at DESC);
CREATE INDEX sessions_last_seen ON sessions (last_seen_at);

-- A session's teams are the member rows of its address, in every team (members_team_email serves
-- one team only).
CREATE INDEX members_email ON members (lower(email));
