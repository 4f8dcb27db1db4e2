// Messages whose hand-off is unconfirmed: a claim that vanished mid-send (its worker killed), a call
// the provider did not answer by the batch's deadline, an outcome that could not be written. The
// provider may have such a message, so it is never sent again blindly (src/sms/README.md, "Crash
// safety"):
// - a provider that can be looked up (Twilio) is asked; a message it has is recorded with its id and
//   the status it gives (its later reports apply as usual); one it does not have was never taken,
//   so it is sent (or, its attempts used up, rejected and released);
// - a provider that cannot be looked up (Africa's Talking, Termii, log): the message is left `sent`
//   with its charge, and the provider's report decides: it is found by its recipient until then
//   (awaitingIdOf), and a `failed` one returns the charge (reports.ts).
import { smsReason, type ProviderMessage, type SmsProvider } from '../adapters/sms-provider/index.ts';
import type { Db } from '../db/handle.ts';
import { errorMessage } from '../queue/index.ts';
import type { SmsChange } from './outcomes.ts';
import { knownProviderIds, queuedSince } from './reconcile-queries.ts';

/**
 * What one message's attempt came to: changes to write, or a retry; `handedOff`: after it the
 * provider may have the message, so the next claim reconciles it (sms_deliveries.handed_off).
 */
export type Attempt = { changes: SmsChange[]; mayBeAtProvider: boolean } | { retry: string; handedOff?: true };

/**
 * The provider id a message left `sent` without its provider's id holds until a report names its
 * recipient and gives the real one (reports.ts). No provider's id starts with `to:`.
 */
export function awaitingIdOf(to: string): string {
  return `to:${to}`;
}

/** The change that leaves a message `sent` with its charge, waiting for its provider's report. */
export function leftSent(provider: SmsProvider['kind'], job: { to_number: string }): SmsChange {
  return { status: 'sent', provider, providerMessageId: awaitingIdOf(job.to_number), reason: null };
}

/** What reconciling needs of a claimed message. */
export interface UnconfirmedJob {
  sms_id: string;
  to_number: string;
  sender_id: string;
  body: string;
}

/** The changes that record a message the provider has, as it reports it. */
function foundChanges(provider: SmsProvider['kind'], found: ProviderMessage): SmsChange[] {
  const id = { provider, providerMessageId: found.providerMessageId };
  // Dropped without sending (Twilio `failed`): rejected from queued, the charge returned.
  if (found.status === 'rejected') return [{ status: 'rejected', reason: found.reason ?? smsReason('unknown'), ...id }];
  const sent: SmsChange = { status: 'sent', reason: null, ...id };
  if (found.status === 'sent') return [sent];
  if (found.status === 'delivered') return [sent, { status: 'delivered' }];
  return [sent, { status: 'failed', reason: found.reason ?? smsReason('unknown') }];
}

/**
 * Provider messages the process's batches matched to a message whose outcome is not written yet: no
 * other batch of the process may take them meanwhile (after the write, knownProviderIds sees them).
 * The queue holds one; each batch releases the ids of its attempts once their outcomes are written.
 */
export type MatchedProviderIds = Set<string>;

/** Releases the provider ids of `attempts`, whose outcomes are written (or failed to be). */
export function releaseMatched(
  matched: MatchedProviderIds,
  attempts: readonly (Attempt | 'absent' | undefined)[],
): void {
  for (const a of attempts)
    if (a !== undefined && a !== 'absent' && 'changes' in a)
      for (const change of a.changes) if (change.providerMessageId) matched.delete(change.providerMessageId);
}

/** Lookups under way at once: a crashed worker leaves up to three full batches to reconcile. */
const LOOKUPS_AT_ONCE = 16;

/**
 * Each job's attempt, or 'absent' where the provider can be looked up and has no such message.
 * Jobs with the same number, sender and text are looked up one after the other, so that each is
 * given a different provider message; others side by side. A provider message another batch of the
 * process matched and has not written yet (`matched`) is not taken again. Between processes, two
 * batches may still match the same one (no unique index on provider ids yet).
 */
export async function reconcile(
  provider: SmsProvider,
  db: Db,
  jobs: readonly UnconfirmedJob[],
  signal: AbortSignal,
  matched: MatchedProviderIds,
): Promise<Map<string, Attempt | 'absent'>> {
  const results = new Map<string, Attempt | 'absent'>();
  if (jobs.length === 0) return results;
  if (provider.lookup === undefined) {
    // Left `sent` with its charge and no provider id: its report decides (README, "Crash safety").
    for (const job of jobs) results.set(job.sms_id, { changes: [leftSent(provider.kind, job)], mayBeAtProvider: true });
    return results;
  }
  const lookup = provider.lookup.bind(provider);
  // Whatever fails here (the lookup, the database) leaves the job unconfirmed for the next claim,
  // never a clean retry that would send it again.
  const failed = (job: UnconfirmedJob, error: unknown) =>
    results.set(job.sms_id, { retry: errorMessage(error), handedOff: true });
  let since: Map<string, Date>;
  try {
    since = await queuedSince(
      db,
      jobs.map((job) => job.sms_id),
    );
  } catch (error) {
    for (const job of jobs) failed(job, error);
    return results;
  }
  const reconcileOne = async (job: UnconfirmedJob) => {
    const message = { id: job.sms_id, to: job.to_number, from: job.sender_id, text: job.body };
    try {
      const outcome = await lookup(message, since.get(job.sms_id) ?? new Date(0), signal);
      if (outcome.kind === 'retry') {
        failed(job, outcome.error);
        return;
      }
      const ids = outcome.matches.map((match) => match.providerMessageId);
      const known = await knownProviderIds(db, provider.kind, ids);
      const found = outcome.matches.find((m) => !matched.has(m.providerMessageId) && !known.has(m.providerMessageId));
      if (found === undefined) {
        results.set(job.sms_id, 'absent');
        return;
      }
      matched.add(found.providerMessageId);
      results.set(job.sms_id, { changes: foundChanges(provider.kind, found), mayBeAtProvider: true });
    } catch (error) {
      failed(job, error);
    }
  };
  const alike = new Map<string, UnconfirmedJob[]>();
  for (const job of jobs) {
    const key = JSON.stringify([job.to_number, job.sender_id, job.body]);
    const group = alike.get(key);
    if (group === undefined) alike.set(key, [job]);
    else group.push(job);
  }
  const groups = [...alike.values()];
  const lane = async () => {
    for (let group = groups.shift(); group !== undefined; group = groups.shift())
      for (const job of group) await reconcileOne(job);
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, groups.length) }, lane));
  return results;
}
