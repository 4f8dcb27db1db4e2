-- Herald extension (issue 46, keys and suppressions in the public API).
-- When each key was last used, to the minute: written by the principal cache's lookup of a key it
-- did not hold (platform/auth/principal-cache.ts), at most once a minute per key and never per
-- request. NULL: never used since the column existed.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;

-- The audit log (GET /v1/audit-log) also records the changes keys make, written in the change's own
-- transaction: what (api_key.created, api_key.revoked, suppression.added, suppression.removed) and
-- to which key id or address. Both NULL on a billing read's row.
ALTER TABLE billing_audit_log ADD COLUMN action text, ADD COLUMN target text;
