// The tables partitioned by month (0027_monthly_partitions.sql), in families: a root whose ids carry
// their creation time, and the tables partitioned by the root's id, whose months go with the root's.
// A month is dropped only when every row of the root's partition is in a final state.
import { FIRST_ANALYSIS_ROWS } from '../db/statistics.ts';

export interface PartitionedTable {
  name: string;
  /** The column holding the root's id; each partition references the root's partition of its month. */
  column: string;
  /** Storage options of each new partition (email_opens leaves room on its pages for HOT updates). */
  options?: string;
}

export interface PartitionFamily {
  root: string;
  /** The prefix of the root's ids (herald_new_id / newId). */
  prefix: string;
  /** Partitioned by the root's id; dropped before the root's month. */
  children: PartitionedTable[];
  /** The root rows that hold their month back (SQL over the root's columns). */
  notFinal: string | null;
  /** Which retention decides when a month goes. */
  keptBy: 'events' | 'webhookCalls';
}

export const PARTITION_FAMILIES: readonly PartitionFamily[] = [
  {
    root: 'emails',
    prefix: 'em_',
    children: [
      { name: 'email_events', column: 'email_id' },
      { name: 'email_recipients', column: 'email_id' },
      { name: 'email_attachments', column: 'email_id' },
      { name: 'email_opens', column: 'email_id', options: 'fillfactor=50' },
    ],
    // Still to be sent or retried (a retried email stays QUEUED). One arm per partial index of the
    // delivery queue (emails_due, emails_due_bulk), so the check reads those, not the whole month.
    notFinal: "status IN ('QUEUED', 'SCHEDULED') AND NOT bulk OR status IN ('QUEUED', 'SCHEDULED') AND bulk",
    keptBy: 'events',
  },
  // The contract keeps webhook calls 30 days (the purge chore deletes them then, src/webhooks/).
  {
    root: 'webhook_calls',
    prefix: 'msg_',
    children: [],
    // One arm per partial index (webhook_calls_due, webhook_calls_in_progress).
    notFinal: "status = 'PENDING' OR status = 'IN_PROGRESS'",
    keptBy: 'webhookCalls',
  },
  { root: 'sms_messages', prefix: 'sms_', children: [], notFinal: "status = 'queued'", keptBy: 'events' },
  // A pending code expires within minutes: months after, nothing waits on it.
  { root: 'verifications', prefix: 'ver_', children: [], notFinal: null, keptBy: 'events' },
  {
    root: 'inbox_messages',
    prefix: 'inmsg_',
    children: [{ name: 'inbox_attachments', column: 'message_id' }],
    notFinal: null,
    keptBy: 'events',
  },
];

export const WEBHOOK_CALLS_KEPT_DAYS = 30;

/**
 * Every month partition's: autovacuum analyses it first after FIRST_ANALYSIS_ROWS changes, not 50
 * (why: src/db/statistics.ts); 0029_partition_first_analysis.sql set it on the partitions made before.
 */
const PARTITION_OPTIONS = `autovacuum_analyze_threshold=${FIRST_ANALYSIS_ROWS}`;

/** A family's tables as their month partitions are made: the root first, which the children's reference. */
export function familyTables(family: PartitionFamily) {
  return [
    { name: family.root, options: PARTITION_OPTIONS, reference: null },
    ...family.children.map((c) => ({
      name: c.name,
      options: [PARTITION_OPTIONS, ...(c.options ? [c.options] : [])].join(','),
      reference: { root: family.root, column: c.column },
    })),
  ];
}
