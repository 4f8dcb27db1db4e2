-- Sending domains: DKIM key (private half encrypted), DNS check results, and the verification queue
-- columns (the domain row is the job: due at next_check_at, leased while a worker checks it).

CREATE TABLE domains (
  id                    serial PRIMARY KEY,
  team_id               integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name                  text NOT NULL,
  region                text NOT NULL,
  status                text NOT NULL DEFAULT 'NOT_STARTED'
                          CHECK (status IN ('NOT_STARTED', 'PENDING', 'SUCCESS', 'FAILED', 'TEMPORARY_FAILURE')),
  click_tracking        boolean NOT NULL DEFAULT false,
  open_tracking         boolean NOT NULL DEFAULT false,
  dkim_selector         text NOT NULL,
  -- base64 DER SubjectPublicKeyInfo, the p= of the DKIM record
  dkim_public_key       text NOT NULL,
  -- PKCS#8 PEM sealed with AES-256-GCM under a key derived from HERALD_SECRET (platform/crypto.ts)
  dkim_private_key      text NOT NULL,
  -- the bounce (MAIL FROM) domain whose SPF and MX records point at this service
  return_path           text NOT NULL,
  -- per-record results of the latest check (same five values as status)
  dkim_record_status    text NOT NULL DEFAULT 'NOT_STARTED',
  spf_record_status     text NOT NULL DEFAULT 'NOT_STARTED',
  mx_record_status      text NOT NULL DEFAULT 'NOT_STARTED',
  dmarc_record_status   text NOT NULL DEFAULT 'NOT_STARTED',
  is_verifying          boolean NOT NULL DEFAULT false,
  error_message         text,
  verification_error    text,
  last_checked_at       timestamptz,
  -- set by a check that found every required record, cleared by one that found a record missing or
  -- wrong; a temporary DNS failure leaves it alone. Mail may be sent while it is set.
  verified_at           timestamptz,
  verify_requested_at   timestamptz,
  -- bumped by every verify request, so a check that was running meanwhile does not answer for it
  check_generation      integer NOT NULL DEFAULT 0,
  next_check_at         timestamptz NOT NULL,
  check_lease_until     timestamptz,
  check_attempts        integer NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  deleted_at            timestamptz
);

-- A name once per team among live domains; two teams may each add the same name (own DKIM keys).
CREATE UNIQUE INDEX domains_team_name ON domains (team_id, name) WHERE deleted_at IS NULL;
-- Target of the api_keys foreign key below: a key's domain must belong to the key's team.
CREATE UNIQUE INDEX domains_team_id ON domains (team_id, id);
CREATE INDEX domains_next_check ON domains (next_check_at) WHERE deleted_at IS NULL;

-- A key limited to a domain names one of its own team's domains. Domains are deleted softly, so the
-- cascade only runs when the team itself goes.
ALTER TABLE api_keys
  ADD CONSTRAINT api_keys_domain_fk FOREIGN KEY (team_id, domain_id) REFERENCES domains (team_id, id)
  ON DELETE CASCADE;
