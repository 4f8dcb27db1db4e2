-- Where an email came from: 'api' (the HTTP API, and every sender inside Herald) or 'smtp' (SMTP
-- submission, src/submission/). GET /v1/emails shows it as `source`. A constant default is a
-- catalogue change only, and the check is added NOT VALID: every existing row is 'api', so no
-- scan of a large table holds its lock.
ALTER TABLE emails ADD COLUMN source text NOT NULL DEFAULT 'api';
ALTER TABLE emails ADD CONSTRAINT emails_source CHECK (source IN ('api', 'smtp')) NOT VALID;

-- An inline attachment's Content-ID, without angle brackets (the HTML refers to it as cid:...):
-- sent as an inline part of the HTML's multipart/related, as the message submitted by SMTP had it.
ALTER TABLE email_attachments ADD COLUMN content_id text;
