-- Autovacuum analyses a month partition first after 1,000 changes, not 50: analysed with a few
-- dozen rows, its plans (foreign-key checks among them) read it by sequential scan until the next
-- analysis, by when it may hold a minute of sends (src/db/statistics.ts). The partitions made from
-- now on take it from src/retention/families.ts.
DO $$
DECLARE
  part record;
BEGIN
  FOR part IN
    SELECT c.oid::regclass AS tab
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class r ON r.oid = i.inhparent
    WHERE r.relkind = 'p' AND r.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
  LOOP
    EXECUTE format('ALTER TABLE %s SET (autovacuum_analyze_threshold = 1000)', part.tab);
  END LOOP;
END
$$;
