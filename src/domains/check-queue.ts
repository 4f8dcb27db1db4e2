// The domain row is the job: a domain is due for a DNS check at next_check_at. Create and
// PUT …/verify make it due now (and NOTIFY); every check schedules the next one. Verified domains are
// rechecked every 12 hours, so a record removed later is noticed; failed ones often at first (DNS
// takes a while to propagate after the user publishes), then less often.
import { sql } from 'kysely';
import type { DnsResolver } from '../adapters/dns.ts';
import type { DomainStatus } from '../db/schema.ts';
import { defineQueue, type Queue } from '../queue/index.ts';
import { giveUpChecks, releaseChecks, saveCheckResult, type CheckResult, type DomainRow } from './queries.ts';
import { checkDomainDns, type DnsCheck, type RecordCheck } from './verify.ts';

export const DOMAIN_CHECK_QUEUE = 'domain-checks';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RECHECK_VERIFIED_MS = 12 * HOUR;
const RETRY_TEMPORARY_MS = 5 * MINUTE;

/** After a check that found records missing or wrong: every 5 min for an hour, hourly to 72 h, then daily. */
function recheckFailedAfterMs(sinceRequestMs: number): number {
  if (sinceRequestMs < HOUR) return 5 * MINUTE;
  if (sinceRequestMs < 72 * HOUR) return HOUR;
  return 24 * HOUR;
}

const problems = (checks: RecordCheck[]) => checks.flatMap((check) => (check.problem === null ? [] : [check.problem]));
const joined = (sentences: string[]) => (sentences.length === 0 ? null : sentences.join(' '));

/**
 * What a check means for the domain. A temporary DNS failure decides nothing on its own: a verified
 * domain stays SUCCESS (and may keep sending), an unverified one is TEMPORARY_FAILURE; only a definite
 * answer (record missing or wrong) takes verification away.
 */
function checkOutcome(
  row: Pick<DomainRow, 'verified_at' | 'verify_requested_at' | 'created_at'>,
  check: DnsCheck,
  now: Date,
): CheckResult {
  const required = [check.dkim, check.spf, check.mx];
  const verifiedAt =
    check.overall === 'SUCCESS' ? (row.verified_at ?? now) : check.overall === 'FAILED' ? null : row.verified_at;
  const status: DomainStatus = check.overall === 'TEMPORARY_FAILURE' && verifiedAt !== null ? 'SUCCESS' : check.overall;
  const temporary = required.filter((r) => r.status === 'TEMPORARY_FAILURE');
  const delay =
    check.overall === 'FAILED'
      ? recheckFailedAfterMs(now.getTime() - (row.verify_requested_at ?? row.created_at).getTime())
      : temporary.length > 0
        ? RETRY_TEMPORARY_MS
        : RECHECK_VERIFIED_MS;
  return {
    status,
    dkim_record_status: check.dkim.status,
    spf_record_status: check.spf.status,
    mx_record_status: check.mx.status,
    dmarc_record_status: check.dmarc.status,
    is_verifying: false,
    verification_error: joined(problems(required)),
    error_message: joined(problems(temporary)),
    last_checked_at: now,
    verified_at: verifiedAt,
    next_check_at: new Date(now.getTime() + delay),
    updated_at: now,
  };
}

interface DomainCheckDeps {
  dns: DnsResolver;
  mailDomain: string;
}

export function domainCheckQueue(deps: DomainCheckDeps): Queue {
  return defineQueue<DomainRow>({
    name: DOMAIN_CHECK_QUEUE,
    table: 'domains',
    idType: 'integer',
    dueColumn: 'next_check_at',
    leaseColumn: 'check_lease_until',
    attemptsColumn: 'check_attempts',
    readyWhere: sql`deleted_at IS NULL`,
    batchSize: 20,
    // Four lookups run side by side, each bounded by the resolver's timeout and tries.
    leaseMs: 2 * MINUTE,
    maxAttempts: 3,
    backoff: { baseMs: 30_000, maxMs: 10 * MINUTE },
    // DNS answers, temporary failures included, are results, not errors: a throw here is our own
    // fault (the database), retried with backoff.
    handleRow: async (row, ctx) => {
      const check = await checkDomainDns(
        deps.dns,
        {
          name: row.name,
          dkimSelector: row.dkim_selector,
          dkimPublicKey: row.dkim_public_key,
          returnPath: row.return_path,
        },
        deps.mailDomain,
      );
      const now = ctx.clock.now();
      const saved = await saveCheckResult(ctx.db, row, ctx.leaseUntil, checkOutcome(row, check, now));
      if (!saved)
        ctx.logger.debug(
          { domainId: row.id },
          'domain check result dropped: verify requested again or domain deleted meanwhile',
        );
    },
    // Attempts count claims; a domain is checked for as long as it lives, so a good check starts over.
    // A function rather than a SQL fragment on purpose: the runner then claims in a statement of its
    // own after this one, which sees a row that a verify request made due again while it was being
    // checked (a fragment rides with the next claim, which skips the rows it finalises, and the
    // request would wait for the poll interval).
    onDone: async (items, ctx) => {
      await releaseChecks(
        ctx.db,
        items.map((item) => Number(item.id)),
        ctx.leaseUntil,
      );
    },
    onFailed: async (items, ctx) => {
      const retryAt = new Date(ctx.clock.now().getTime() + HOUR);
      const ids = items.map((item) => Number(item.id));
      await giveUpChecks(
        ctx.db,
        ids,
        ctx.leaseUntil,
        retryAt,
        'The DNS check could not be completed; it will be tried again within the hour',
      );
    },
  });
}
