// Domain verification end to end, what a check finds: the API requests a check, the worker
// (createWorkerRunner, as `herald worker` runs it) asks a real DNS server on loopback, and the result
// (each record right or wrong, and why) is read back through the API. Over time: verification-schedule.test.ts.
import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSendFrom, getSendingDomain } from '../../src/domains/index.ts';
import type { TestApp } from '../support/app.ts';
import { txtChunks, type TestDnsServer } from '../support/dns-server.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import {
  call,
  createDomain,
  MAIL_DOMAIN,
  recordOf,
  startVerificationBed,
  statuses,
  type VerificationBed,
} from './support.ts';

let dns: TestDnsServer, t: TestApp, team: TestTeam, close: () => Promise<void>;
let publishAll: VerificationBed['publishAll'], settled: VerificationBed['settled'];
let verifyAgain: VerificationBed['verifyAgain'];
beforeAll(async () => {
  ({ dns, t, team, publishAll, settled, verifyAgain, close } = await startVerificationBed());
});
afterAll(() => close());

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
});
