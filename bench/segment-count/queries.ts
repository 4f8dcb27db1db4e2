// The segment count benchmark's queries (bench/segment-count.ts): the segment count through the
// segments area, the bare count of the book (the baseline), the same four conditions written by hand
// (the check), and EXPLAIN of the compiled count.
import { sql } from 'kysely';
import { countSegmentContacts, segmentContactsQuery } from '../../src/segments/index.ts';
import type { BenchData, Db } from './data.ts';

/** The same four conditions written by hand, independently of compile.ts (the data's scores are plain decimals or not numbers at all). */
export async function handCount(db: Db, data: BenchData): Promise<number> {
  const since = new Date(data.now.getTime() - 30 * 86_400_000);
  const result = await sql<{ count: string }>`
    WITH opened AS (
      SELECT DISTINCT r.address FROM email_events e JOIN email_recipients r ON r.email_id = e.email_id
      WHERE e.team_id = ${data.teamId}::integer AND r.team_id = ${data.teamId}::integer
        AND e.status = 'OPENED' AND e.created_at >= ${since}::timestamptz)
    SELECT count(*) FROM contacts c JOIN opened o ON o.address = c.email
    WHERE c.team_id = ${data.teamId}::integer AND c.contact_book_id = ${data.bookId}::text
      AND c.subscribed AND c.confirmed_at IS NOT NULL
      AND lower(c.properties ->> 'plan') = 'pro'
      AND CASE WHEN c.properties ->> 'score' ~ '^ *[0-9]+(\\.[0-9]+)? *$' THEN (c.properties ->> 'score')::numeric > 50 ELSE false END`.execute(
    db,
  );
  return Number(result.rows[0]!.count);
}

export async function bareCount(db: Db, data: BenchData): Promise<number> {
  const result = await sql<{
    count: string;
  }>`SELECT count(*) FROM contacts WHERE team_id = ${data.teamId}::integer AND contact_book_id = ${data.bookId}::text`.execute(
    db,
  );
  return Number(result.rows[0]!.count);
}

export async function segmentCount(db: Db, data: BenchData): Promise<number> {
  const count = await countSegmentContacts(db, data.teamId, data.segmentId, data.now);
  if (count === undefined) throw new Error('the bench segment is gone');
  return count;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the compiled count query, with the plan's nodes and the indexes it used. */
export async function explain(
  db: Db,
  data: BenchData,
): Promise<{ text: string; nodes: string[]; indexes: string[]; execution: string; jit: string; scanNote: string }> {
  const query = await segmentContactsQuery(db, data.teamId, data.segmentId, data.now);
  const compiled = query!.select((eb) => eb.fn.countAll().as('count')).compile();
  const result = await db.executeQuery<{ 'QUERY PLAN': string }>({
    ...compiled,
    sql: `EXPLAIN (ANALYZE, BUFFERS) ${compiled.sql}`,
  });
  const lines = result.rows.map((row) => row['QUERY PLAN']);
  const nodes = lines
    .filter((line, i) => i === 0 || /^\s*->/.test(line) || /^\s*SubPlan|^\s*InitPlan/.test(line))
    .map((line) =>
      line
        .replace(/\s+\(cost=.*$/, '')
        .replace(/->\s+/, '')
        .trimEnd(),
    );
  const indexes = [
    ...new Set(
      lines.flatMap((line) =>
        [...line.matchAll(/(?:Index(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on) (\w+)/g)].map(
          (m) => m[1]!,
        ),
      ),
    ),
  ];
  const execution = lines.find((line) => line.startsWith('Execution Time:'))?.replace('Execution Time: ', '') ?? '?';
  const jit = lines.find((line) => /^\s*Timing: Generation/.test(line))?.match(/Total ([\d.]+ ms)/)?.[1] ?? 'none';
  // Where the time goes, when the plan scans the book: the scan with its filters, and what it leaves.
  const scan = lines
    .find((line) => /Seq Scan on contacts c/.test(line))
    ?.match(/actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)/);
  const scanNote = scan
    ? `the scan of the book with the property and subscribed filters takes ${Number(scan[1]).toFixed(0)} ms in each of ${scan[3]} processes and leaves ${(Number(scan[2]) * Number(scan[3])).toLocaleString('en-US')} candidates for the email-activity check`
    : '';
  return { text: lines.join('\n'), nodes, indexes, execution, jit, scanNote };
}
