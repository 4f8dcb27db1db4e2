-- Monthly partitions of the tables that grow with traffic (src/retention/README.md): emails with
-- their events, recipients, attachments and opens; webhook calls; SMS messages; one-time codes;
-- inbox messages with their attachments. Each is partitioned by RANGE of its id, which carries its
-- creation time (herald_new_id: prefix, then 10 base32 characters of milliseconds), or of its
-- parent's id for the tables that hang off an email or an inbox message, so a month of an email is
-- the same month of its events and all of it goes by one DROP; a read by id prunes to one partition
-- with no id -> month index.
--
-- The table as it stands becomes the first partition, `<table>_before_<YYYYMM>` (every id before
-- next month, from MINVALUE): no row is copied and no id changes, however many rows it holds (ATTACH
-- reads it once to check the bound; email_events builds its new key's index). Then a
-- partition per month (`<table>_mYYYYMM`), two months ahead, and a DEFAULT one (`<table>_later`) for
-- an id past the last month made (a clock far ahead), so that an insert never fails for want of one.

-- The smallest id of `prefix` at `at`: the prefix and the 10 characters of milliseconds.
CREATE FUNCTION herald_id_floor(prefix text, at timestamptz) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  t bigint := floor(extract(epoch FROM at) * 1000)::bigint;
  head text := '';
BEGIN
  FOR i IN 1..10 LOOP
    head := substr(alphabet, (t % 32)::int + 1, 1) || head;
    t := t / 32;
  END LOOP;
  RETURN prefix || head;
END
$$;

-- The foreign key of a partition of a child table (an email's events, recipients, attachments and
-- opens; an inbox message's attachments) to its root's partition of the same month, rather than one
-- between the partitioned tables: both are partitioned by the root's id with the same bounds, so the
-- rows of one month reference only that month, and dropping a month (the child's partition, then the
-- root's) has no key to check; a key between the partitioned tables made PostgreSQL read the other
-- months' rows at each DETACH (1.3 s a million emails, measured).
CREATE FUNCTION herald_partition_reference(child_part text, ref_column text, root_part text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %I ADD FOREIGN KEY (%I) REFERENCES %I (id) ON DELETE CASCADE',
    child_part, ref_column, root_part);
END
$$;

-- Creates `<parent>_mYYYYMM` for the month of `month` unless it exists or another partition covers
-- it (the first one), with the storage options `options` (email_opens keeps room on its pages for
-- HOT updates). A table partitioned by its root's id (`ref_root`, `ref_column`: an email's events by
-- email_id) references the root's partition of the same month (see herald_partition_reference).
-- False, changing nothing, when the DEFAULT partition already holds rows of that month (PostgreSQL
-- refuses the partition then).
CREATE FUNCTION herald_month_partition(parent text, prefix text, month date, options text DEFAULT '',
  ref_root text DEFAULT NULL, ref_column text DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  first date := date_trunc('month', month)::date;
  suffix text := '_m' || to_char(first, 'YYYYMM');
BEGIN
  IF to_regclass(parent || suffix) IS NOT NULL THEN
    RETURN true;
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)%s', parent || suffix, parent,
    herald_id_floor(prefix, first::timestamp AT TIME ZONE 'UTC'),
    herald_id_floor(prefix, (first + interval '1 month')::timestamp AT TIME ZONE 'UTC'),
    CASE WHEN options = '' THEN '' ELSE format(' WITH (%s)', options) END);
  IF ref_root IS NOT NULL THEN
    -- Without its root's month (not made), the month's rows stay beside the root's, in DEFAULT:
    -- undone as the DEFAULT partition's refusal is.
    IF to_regclass(ref_root || suffix) IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'check_violation';
    END IF;
    PERFORM herald_partition_reference(parent || suffix, ref_column, ref_root || suffix);
  END IF;
  RETURN true;
EXCEPTION
  WHEN check_violation THEN RETURN false;
  -- "would overlap partition": the month is another partition's
  WHEN invalid_object_definition THEN RETURN true;
END
$$;

-- Turns `tbl` into a table partitioned by RANGE (`key`), itself the first partition. Its indexes,
-- constraints and triggers are restated on the partitioned table (PostgreSQL attaches the existing
-- indexes instead of building them again); `pk` is the primary key, which must hold `key`. A child
-- table names its root (`ref_root`, partitioned already) and gets each partition's reference to it.
-- Foreign keys that reference `tbl` are dropped by the caller first.
CREATE FUNCTION herald_partition_table(tbl text, key text, prefix text, pk text, ref_root text DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  next_month date := (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month')::date;
  first_part text := tbl || '_before_' || to_char(next_month, 'YYYYMM');
  options text := (SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE oid = tbl::regclass);
  old_pk text := (SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = tbl::regclass AND contype = 'p');
  index_defs text[];
  trigger_defs text[];
  fk_defs text[];
  item text;
BEGIN
  -- A partition's checks must be valid ones (emails_source was added NOT VALID).
  FOR item IN SELECT conname FROM pg_constraint WHERE conrelid = tbl::regclass AND NOT convalidated LOOP
    EXECUTE format('ALTER TABLE %I VALIDATE CONSTRAINT %I', tbl, item);
  END LOOP;
  -- Each definition names `tbl`, which is the partitioned table by the time they run again.
  SELECT coalesce(array_agg(pg_get_indexdef(i.indexrelid)), '{}') INTO index_defs
    FROM pg_index i
    WHERE i.indrelid = tbl::regclass
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid);
  SELECT coalesce(array_agg(pg_get_triggerdef(t.oid)), '{}') INTO trigger_defs
    FROM pg_trigger t WHERE t.tgrelid = tbl::regclass AND NOT t.tgisinternal;
  SELECT coalesce(array_agg(pg_get_constraintdef(c.oid)), '{}') INTO fk_defs
    FROM pg_constraint c WHERE c.conrelid = tbl::regclass AND c.contype = 'f';

  -- The old table and its indexes take the first partition's names, freeing the table's own.
  FOR item IN SELECT t.tgname FROM pg_trigger t WHERE t.tgrelid = tbl::regclass AND NOT t.tgisinternal LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', item, tbl);
  END LOOP;
  FOR item IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                WHERE i.indrelid = tbl::regclass LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', item,
      first_part || CASE WHEN starts_with(item, tbl || '_') THEN substr(item, length(tbl) + 1) ELSE '_' || item END);
  END LOOP;
  EXECUTE format('ALTER TABLE %I RENAME TO %I', tbl, first_part);
  IF old_pk <> format('PRIMARY KEY (%s)', pk) THEN
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', first_part, first_part || '_pkey');
  END IF;
  -- The serial id's sequence belonged to the old table, which retention drops one day.
  FOR item IN SELECT pg_get_serial_sequence(first_part, a.attname) || ' OWNED BY ' || quote_ident(tbl) || '.' || quote_ident(a.attname)
                FROM pg_attribute a
                WHERE a.attrelid = first_part::regclass AND a.attnum > 0 AND NOT a.attisdropped
                  AND pg_get_serial_sequence(first_part, a.attname) IS NOT NULL LOOP
    item := 'ALTER SEQUENCE ' || item;
    trigger_defs := trigger_defs || item;
  END LOOP;

  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)'
    ' PARTITION BY RANGE (%I)', tbl, first_part, key);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (%s)', tbl, tbl || '_pkey', pk);
  FOREACH item IN ARRAY index_defs LOOP
    EXECUTE item;
  END LOOP;
  FOREACH item IN ARRAY fk_defs LOOP
    EXECUTE format('ALTER TABLE %I ADD %s', tbl, item);
  END LOOP;

  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', tbl, first_part,
    herald_id_floor(prefix, next_month::timestamp AT TIME ZONE 'UTC'));
  PERFORM herald_month_partition(tbl, prefix, next_month, options, ref_root, key);
  PERFORM herald_month_partition(tbl, prefix, (next_month + interval '1 month')::date, options, ref_root, key);
  EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT%s', tbl || '_later', tbl,
    CASE WHEN options = '' THEN '' ELSE format(' WITH (%s)', options) END);
  IF ref_root IS NOT NULL THEN
    PERFORM herald_partition_reference(first_part, key, ref_root || substr(first_part, length(tbl) + 1));
    PERFORM herald_partition_reference(tbl || '_later', key, ref_root || '_later');
  END IF;
  -- Triggers, and the sequences' new owner (the table the column now belongs to).
  FOREACH item IN ARRAY trigger_defs LOOP
    EXECUTE item;
  END LOOP;
END
$$;

-- The foreign keys to a root go, and come back partition to partition (herald_partition_reference).
ALTER TABLE email_events DROP CONSTRAINT email_events_email_id_fkey;
ALTER TABLE email_attachments DROP CONSTRAINT email_attachments_email_id_fkey;
ALTER TABLE email_recipients DROP CONSTRAINT email_recipients_email_id_fkey;
ALTER TABLE email_opens DROP CONSTRAINT email_opens_email_id_fkey;
ALTER TABLE inbox_attachments DROP CONSTRAINT inbox_attachments_message_id_fkey;

SELECT herald_partition_table('emails', 'id', 'em_', 'id');
-- An email's events were keyed by their own serial id; the key now leads with the email's.
SELECT herald_partition_table('email_events', 'email_id', 'em_', 'email_id, id', 'emails');
SELECT herald_partition_table('email_recipients', 'email_id', 'em_', 'team_id, address, email_id', 'emails');
SELECT herald_partition_table('email_attachments', 'email_id', 'em_', 'email_id, position', 'emails');
SELECT herald_partition_table('email_opens', 'email_id', 'em_', 'email_id, open_key', 'emails');
SELECT herald_partition_table('webhook_calls', 'id', 'msg_', 'id');
SELECT herald_partition_table('sms_messages', 'id', 'sms_', 'id');
SELECT herald_partition_table('verifications', 'id', 'ver_', 'id');
SELECT herald_partition_table('inbox_messages', 'id', 'inmsg_', 'id');
SELECT herald_partition_table('inbox_attachments', 'message_id', 'inmsg_', 'message_id, position', 'inbox_messages');

-- The events' (email_id, id) index is the primary key now.
DROP INDEX email_events_email;

DROP FUNCTION herald_partition_table(text, text, text, text, text);

-- Retention (src/retention/): an email whose html, text and attachments were removed after
-- HERALD_RETENTION_BODIES_DAYS (its metadata and events stay until HERALD_RETENTION_EVENTS_DAYS).
ALTER TABLE emails ADD COLUMN body_removed_at timestamptz;
-- How far each family's bodies were removed: the id below which every final row was emptied, so a
-- run reads on from there instead of searching the kept months for bodies.
CREATE TABLE retention_marks (
  name        text PRIMARY KEY,
  bodies_upto text NOT NULL
);
