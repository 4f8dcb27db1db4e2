-- Team inboxes and the messages they receive (src/inboxes). The listener accepts RCPT TO for a live
-- inbox's address (lower case, without +tag); a message for it is parsed, classified and stored here
-- by whoever records the spooled message (src/mx/record-spooled.ts), in the transaction that
-- deletes the spool row and records the email.received event.
CREATE TABLE inboxes (
  id          text PRIMARY KEY,
  team_id     integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name        text NOT NULL,
  -- local@domain, lower case; the domain is HERALD_MAIL_DOMAIN (domain_id null) or a verified
  -- sending domain of the team.
  address     text NOT NULL,
  domain_id   integer,
  created_at  timestamptz NOT NULL,
  -- Deleted inboxes are kept so that their messages still name them; the address is free again.
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX inboxes_live_address ON inboxes (address) WHERE deleted_at IS NULL;
CREATE INDEX inboxes_team ON inboxes (team_id, created_at, id);

CREATE TABLE inbox_messages (
  id                    text PRIMARY KEY,
  team_id               integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  inbox_id              text NOT NULL REFERENCES inboxes (id),
  conversation_id       text NOT NULL,
  -- The RFC 5322 Message-ID as sent (may be missing or repeated): threading only, never a key.
  header_message_id     text,
  mail_from             text NOT NULL,
  "from"                text NOT NULL,
  "to"                  text[] NOT NULL,
  cc                    text[] NOT NULL,
  subject               text NOT NULL,
  text                  text,
  html                  text,
  stripped_text         text,
  contact_id            text,
  in_reply_to_email_id  text,
  spam_verdict          text NOT NULL,
  is_spam               boolean NOT NULL,
  -- What decided the verdict (rules that fired, authentication results, rspamd's answer).
  spam_details          jsonb NOT NULL,
  remote_address        text NOT NULL,
  -- The original's bytes are in the blob store (src/inboxes/message-bytes.ts): a batch of received
  -- mail goes as ONE pack file (blob_key), the original at raw_offset, raw_size long; kept
  -- HERALD_INBOUND_RETENTION_DAYS, raw_removed_at once the retention chore removed it. `raw` (and
  -- inbox_attachments.content) held the bytes before the blob store; nothing writes them now, and
  -- message-bytes.ts still reads them while it falls back to them.
  raw                   bytea,
  raw_size              integer NOT NULL,
  raw_removed_at        timestamptz,
  received_at           timestamptz NOT NULL,
  blob_key              text,
  raw_offset            integer
);
-- The list: newest first, spam left out, optionally one inbox.
CREATE INDEX inbox_messages_list ON inbox_messages (team_id, received_at DESC, id DESC) WHERE NOT is_spam;
CREATE INDEX inbox_messages_inbox_list ON inbox_messages (team_id, inbox_id, received_at DESC, id DESC) WHERE NOT is_spam;
-- Threading: an earlier message of the team by its Message-ID, or one answering the same sent email.
CREATE INDEX inbox_messages_header_id ON inbox_messages (team_id, header_message_id) WHERE header_message_id IS NOT NULL;
CREATE INDEX inbox_messages_reply_to_email ON inbox_messages (team_id, in_reply_to_email_id) WHERE in_reply_to_email_id IS NOT NULL;
-- Retention: originals still kept, oldest first.
CREATE INDEX inbox_messages_original_kept ON inbox_messages (received_at) WHERE raw_removed_at IS NULL;

CREATE TABLE inbox_attachments (
  message_id    text NOT NULL REFERENCES inbox_messages (id) ON DELETE CASCADE,
  position      integer NOT NULL,
  team_id       integer NOT NULL,
  filename      text NOT NULL,
  content_type  text NOT NULL,
  size          integer NOT NULL,
  -- Content-ID without angle brackets, for cid: images in the html.
  content_id    text,
  -- Before the blob store: the bytes (see inbox_messages.raw). Now where they start in the pack.
  content       bytea,
  blob_offset   integer,
  PRIMARY KEY (message_id, position)
);
