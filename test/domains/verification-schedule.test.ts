// Domain verification over time, through the worker and a real DNS server on loopback: the checks
// that run on their own, rechecks after SERVFAIL and timeouts (a verified domain keeps sending), an
// answer too large for UDP, a request during a running check, and a deleted domain. The clock is moved
// to reach scheduled rechecks; nothing sleeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSendFrom, getSendingDomain } from '../../src/domains/index.ts';
import type { QueueRunner } from '../../src/queue/index.ts';
import type { TestApp } from '../support/app.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import type { TestTeam } from '../support/factory.ts';
import {
  call,
  createDomain,
  getDomainJson,
  recordOf,
  startVerificationBed,
  statuses,
  uniqueDomain,
  type VerificationBed,
} from './support.ts';

const HOUR = 60 * 60 * 1000;

let dns: TestDnsServer, t: TestApp, runner: QueueRunner, team: TestTeam, close: () => Promise<void>;
let publishAll: VerificationBed['publishAll'], settled: VerificationBed['settled'];
let recheckedAfter: VerificationBed['recheckedAfter'], verifyAgain: VerificationBed['verifyAgain'];
beforeAll(async () => {
  ({ dns, t, runner, team, publishAll, settled, recheckedAfter, verifyAgain, close } = await startVerificationBed());
});
afterAll(() => close());

describe('domain verification through the worker', () => {
  it('checks run on their own: the one create starts, then the rechecks of a failed domain', async () => {
    const created = await createDomain(t.app, team.key);
    // Nothing published yet; nobody calls verify.
    const first = await settled(created.id);
    expect(first.status).toBe('FAILED');
    expect(first.verificationError).toMatch(/^DKIM: .* SPF: .* MX: /);
    expect(first.lastCheckedTime).toBe(t.clock.now().toISOString());

    // The user publishes the records (DMARC left out: recommended only, it does not block).
    publishAll(created);
    dns.remove(recordOf(created, 'DMARC').name);
    const later = await recheckedAfter(created.id, 5 * 60 * 1000);
    expect(later.status).toBe('SUCCESS');
    expect(later.dmarcAdded).toBe(false);
    expect(recordOf(later, 'DMARC').status).toBe('FAILED');
    expect(later.verificationError).toBeNull();
  });

  it('an answer too large for UDP is fetched again over TCP', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    const dkimName = recordOf(created, 'DKIM').name;
    dns.behave(dkimName, 'truncate-udp');
    expect((await verifyAgain(created.id)).status).toBe('SUCCESS');
    expect(dns.queries).toContain(`TXT ${dkimName} over tcp`);
  });

  it('SERVFAIL on a new domain → TEMPORARY_FAILURE, retried a few minutes later', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    dns.behave(recordOf(created, 'DKIM').name, 'servfail');
    const domain = await verifyAgain(created.id);
    expect(domain.status).toBe('TEMPORARY_FAILURE');
    expect(domain.dkimStatus).toBe('TEMPORARY_FAILURE');
    expect(domain.errorMessage).toContain('ESERVFAIL');
    expect(domain.verificationError).toContain('DKIM');
    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(false);

    dns.behave(recordOf(created, 'DKIM').name, 'answer');
    const retried = await recheckedAfter(created.id, 5 * 60 * 1000);
    expect(retried).toMatchObject({ status: 'SUCCESS', errorMessage: null, verificationError: null });
  });

  it('a DNS timeout does not take a verified domain down: it stays SUCCESS, keeps sending, records the error', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    expect((await verifyAgain(created.id)).status).toBe('SUCCESS');

    // The scheduled recheck of a verified domain, 12 hours on, while the server does not answer.
    dns.behave(`send.${created.name}`, 'silent');
    const recheck = await recheckedAfter(created.id, 12 * HOUR);
    expect(recheck.status).toBe('SUCCESS');
    expect(statuses(recheck)).toMatchObject({ DKIM: 'SUCCESS', SPF: 'TEMPORARY_FAILURE', MX: 'TEMPORARY_FAILURE' });
    expect(recheck.errorMessage).toContain('ETIMEOUT');
    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(true);

    // A requested check shows PENDING meanwhile and ends SUCCESS again; sending never stopped.
    const requested = await call(t.app, team.key, 'PUT', `/v1/domains/${created.id}/verify`);
    expect(requested.statusCode).toBe(200);
    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(true);
    expect((await settled(created.id)).status).toBe('SUCCESS');

    // A definite answer does take it down: the records were removed.
    dns.remove(`send.${created.name}`);
    const removed = await recheckedAfter(created.id, 5 * 60 * 1000);
    expect(removed.status).toBe('FAILED');
    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(false);
  });

  it('a verify request that lands while a check is running gets a fresh check of its own', async () => {
    const name = uniqueDomain();
    // The check the create starts hangs on the return path until the resolver gives up.
    dns.behave(`send.${name}`, 'silent');
    const created = await createDomain(t.app, team.key, name);
    await expect.poll(() => dns.queries.includes(`TXT send.${name} over udp`), { timeout: 10_000 }).toBe(true);
    // Meanwhile the user publishes everything and asks again.
    publishAll(created);
    dns.behave(`send.${name}`, 'answer');
    const domain = await verifyAgain(created.id);
    // The running check's timeout answered for the old request only; the new one found the records.
    expect(domain.status).toBe('SUCCESS');
    expect(domain.errorMessage).toBeNull();
  });

  it('a verified domain that is deleted cannot send and is no longer checked', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    expect((await verifyAgain(created.id)).status).toBe('SUCCESS');
    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(true);
    expect((await call(t.app, team.key, 'DELETE', `/v1/domains/${created.id}`)).statusCode).toBe(200);
    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(false);
    expect(await getSendingDomain(t.deps.db, t.deps.secrets, team.id, created.name)).toBeNull();
    const row = await t.deps.db
      .selectFrom('domains')
      .select(['deleted_at', 'last_checked_at'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    t.clock.advance(13 * HOUR);
    runner.wake();
    // Another domain's check proves the worker ran after the clock moved; the deleted one was left alone.
    const probe = await createDomain(t.app, team.key);
    await settled(probe.id);
    expect((await getDomainJson(t.app, team.key, probe.id)).lastCheckedTime).toBe(t.clock.now().toISOString());
    const after = await t.deps.db
      .selectFrom('domains')
      .select(['last_checked_at'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(after.last_checked_at).toEqual(row.last_checked_at);
  });
});
