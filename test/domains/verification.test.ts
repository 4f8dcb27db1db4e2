// Domain verification end to end: the API requests a check, the worker (createWorkerRunner, as
// `herald worker` runs it) asks a real DNS server on loopback, and the result is read back through
// the API. The clock is moved to reach scheduled rechecks; nothing sleeps.
import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsResolver } from '../../src/adapters/dns.ts';
import { canSendFrom, getSendingDomain } from '../../src/domains/index.ts';
import type { QueueRunner } from '../../src/queue/index.ts';
import { createWorkerRunner } from '../../src/worker.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { TestDnsServer, txtChunks } from '../support/dns-server.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { call, createDomain, getDomainJson, recordOf, uniqueDomain, type DomainJson } from './support.ts';

const MAIL_DOMAIN = 'mail.herald.test';
const HOUR = 60 * 60 * 1000;

let dns: TestDnsServer;
let t: TestApp;
let runner: QueueRunner;
let team: TestTeam;

beforeAll(async () => {
  dns = await TestDnsServer.start();
  t = await createTestApp({ config: { dnsServers: [dns.address], mailDomain: MAIL_DOMAIN } });
  // The worker exactly as `herald worker` builds it, with a resolver that gives up on a silent server
  // after a second instead of the production timeout (shorter, and a busy test process, whose event
  // loop also answers as the DNS server, reads as a silent server).
  runner = createWorkerRunner({
    ...t.deps,
    dns: createDnsResolver({ servers: [dns.address], timeoutMs: 1_000, tries: 1 }),
  });
  await runner.start();
  team = await createTeam(t.app);
});
afterAll(async () => {
  await runner.stop();
  await t.close();
  await dns.close();
});

/** Publishes every record the domain asks for, as the user would. */
function publishAll(domain: DomainJson): void {
  for (const record of domain.dnsRecords) {
    if (record.type === 'MX') dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
  }
  dns.setTxt(recordOf(domain, 'DKIM').name, recordOf(domain, 'DKIM').value);
  dns.setTxt(recordOf(domain, 'SPF').name, recordOf(domain, 'SPF').value, 'google-site-verification=abc123');
  dns.setTxt(recordOf(domain, 'DMARC').name, recordOf(domain, 'DMARC').value);
}

/** Waits for the check the API just requested to finish (the worker was woken by NOTIFY). */
async function settled(id: number): Promise<DomainJson> {
  await expect
    .poll(async () => (await getDomainJson(t.app, team.key, id)).isVerifying, { timeout: 10_000 })
    .toBe(false);
  return getDomainJson(t.app, team.key, id);
}

/** Moves the clock by `ms`, wakes the worker, and waits for a check of the domain at the new time. */
async function recheckedAfter(id: number, ms: number): Promise<DomainJson> {
  t.clock.advance(ms);
  const now = t.clock.now().toISOString();
  runner.wake();
  await expect
    .poll(async () => (await getDomainJson(t.app, team.key, id)).lastCheckedTime, { timeout: 10_000 })
    .toBe(now);
  return getDomainJson(t.app, team.key, id);
}

async function verifyAgain(id: number): Promise<DomainJson> {
  const response = await call(t.app, team.key, 'PUT', `/v1/domains/${id}/verify`);
  expect(response.statusCode).toBe(200);
  return settled(id);
}

const statuses = (domain: DomainJson) =>
  Object.fromEntries((['DKIM', 'SPF', 'MX', 'DMARC'] as const).map((kind) => [kind, recordOf(domain, kind).status]));

describe('domain verification through the worker', () => {
  it('the service asks the DNS servers of HERALD_DNS_SERVERS', async () => {
    dns.setTxt('probe.herald.test', ['v=probe ', 'joined']);
    expect(await t.deps.dns.resolveTxt('probe.herald.test')).toEqual(['v=probe joined']);
  });

  it('all records right → SUCCESS; the domain can send and its private key signs for its public key', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    await call(t.app, team.key, 'PUT', `/v1/domains/${created.id}/verify`);
    const domain = await settled(created.id);
    expect(domain).toMatchObject({
      status: 'SUCCESS',
      dkimStatus: 'SUCCESS',
      spfDetails: 'SUCCESS',
      dmarcAdded: true,
      isVerifying: false,
      verificationError: null,
      errorMessage: null,
      lastCheckedTime: t.clock.now().toISOString(),
    });
    expect(statuses(domain)).toEqual({ DKIM: 'SUCCESS', SPF: 'SUCCESS', MX: 'SUCCESS', DMARC: 'SUCCESS' });

    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(true);
    expect(await canSendFrom(t.deps.db, team.id, created.name.toUpperCase())).toBe(true);
    const other = await createTeam(t.app);
    expect(await canSendFrom(t.deps.db, other.id, created.name)).toBe(false);

    const sending = await getSendingDomain(t.deps.db, t.deps.secrets, team.id, created.name);
    expect(sending).toMatchObject({ id: created.id, name: created.name, returnPath: `send.${created.name}` });
    expect(recordOf(created, 'DKIM').name).toBe(`${sending!.dkimSelector}._domainkey.${created.name}`);
    const signature = createSign('sha256').update('mail').sign(sending!.dkimPrivateKey);
    const publicKey = { key: Buffer.from(created.publicKey, 'base64'), format: 'der', type: 'spki' } as const;
    expect(createVerify('sha256').update('mail').verify(publicKey, signature)).toBe(true);
  });

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

  it('a DKIM record with another key → FAILED, naming DKIM and what was found', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    dns.setTxt(recordOf(created, 'DKIM').name, `v=DKIM1; k=rsa; p=${stranger}`);
    const domain = await verifyAgain(created.id);
    expect(domain.status).toBe('FAILED');
    expect(domain.dkimStatus).toBe('FAILED');
    expect(statuses(domain)).toMatchObject({ DKIM: 'FAILED', SPF: 'SUCCESS', MX: 'SUCCESS' });
    expect(domain.verificationError).toContain('DKIM');
    expect(domain.verificationError).toContain(recordOf(created, 'DKIM').name);
    expect(domain.verificationError).toContain(stranger.slice(0, 20));
    expect(domain.verificationError).not.toMatch(/SPF|MX/);
    expect(await canSendFrom(t.deps.db, team.id, created.name)).toBe(false);
  });

  it('no DKIM record at all → FAILED saying it is missing', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    dns.remove(recordOf(created, 'DKIM').name);
    const domain = await verifyAgain(created.id);
    expect(domain.status).toBe('FAILED');
    expect(domain.verificationError).toBe(`DKIM: no TXT record found at ${recordOf(created, 'DKIM').name}`);
  });

  it('no SPF record (other TXT records only) → FAILED naming SPF', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    dns.setTxt(`send.${created.name}`, 'google-site-verification=abc123');
    const domain = await verifyAgain(created.id);
    expect(domain.status).toBe('FAILED');
    expect(domain.spfDetails).toBe('FAILED');
    expect(statuses(domain)).toMatchObject({ DKIM: 'SUCCESS', SPF: 'FAILED', MX: 'SUCCESS' });
    expect(domain.verificationError).toContain(`SPF: no "v=spf1" TXT record found at send.${created.name}`);
  });

  it('two SPF records → FAILED: receivers treat that as an error', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    dns.setTxt(`send.${created.name}`, recordOf(created, 'SPF').value, 'v=spf1 include:_spf.google.com ~all');
    const domain = await verifyAgain(created.id);
    expect(domain.status).toBe('FAILED');
    expect(domain.verificationError).toMatch(/^SPF: 2 "v=spf1" TXT records found/);
  });

  it('an SPF record that does not include us → FAILED quoting it', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    dns.setTxt(`send.${created.name}`, 'v=spf1 include:_spf.google.com -all');
    const domain = await verifyAgain(created.id);
    expect(domain.status).toBe('FAILED');
    expect(domain.verificationError).toContain(`does not contain include:${MAIL_DOMAIN}`);
    expect(domain.verificationError).toContain('_spf.google.com');
  });

  it('an MX pointing elsewhere → FAILED naming MX and the host found', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    dns.setMx(`send.${created.name}`, { exchange: 'mx.elsewhere.test', priority: 10 });
    const domain = await verifyAgain(created.id);
    expect(domain.status).toBe('FAILED');
    expect(statuses(domain)).toMatchObject({ DKIM: 'SUCCESS', SPF: 'SUCCESS', MX: 'FAILED' });
    expect(domain.verificationError).toBe(
      `MX: send.${created.name} points at 10 mx.elsewhere.test, not at ${MAIL_DOMAIN}`,
    );
  });

  it('a DKIM value split into several strings, with spaces inside p=, still passes', async () => {
    const created = await createDomain(t.app, team.key);
    publishAll(created);
    const value = recordOf(created, 'DKIM').value;
    dns.setTxt(recordOf(created, 'DKIM').name, txtChunks(value, 100));
    expect((await verifyAgain(created.id)).status).toBe('SUCCESS');

    const spaced = value.replace(/(p=.{60})(.{60})/, '$1 $2 ');
    dns.setTxt(recordOf(created, 'DKIM').name, txtChunks(spaced, 200));
    expect((await verifyAgain(created.id)).status).toBe('SUCCESS');
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
