// POST /v1/domains through HTTP: the records to publish, the DKIM key (encrypted at rest, one per
// domain), a name already taken, and every input limit at its edge.
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import type { TestTeam } from '../support/factory.ts';
import { call, createDomain, MAIL_DOMAIN, recordOf, startDomainsApp, uniqueDomain } from './support.ts';

let t: TestApp, team: TestTeam, other: TestTeam;
beforeAll(async () => void ({ t, team, other } = await startDomainsApp()));
afterAll(() => t.close());

describe('POST /v1/domains', () => {
  it('returns the domain with the DKIM, SPF, MX and DMARC records to publish and a 2048-bit public key', async () => {
    const name = uniqueDomain();
    const response = await call(t.app, team.key, 'POST', '/v1/domains', { name, region: 'eu-west-1' });
    expect(response.statusCode).toBe(200);
    const domain = response.json();
    expect(domain).toEqual({
      id: expect.any(Number),
      name,
      teamId: team.id,
      status: 'PENDING',
      region: 'eu-west-1',
      clickTracking: false,
      openTracking: false,
      publicKey: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      dkimStatus: 'NOT_STARTED',
      spfDetails: 'NOT_STARTED',
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      dmarcAdded: false,
      isVerifying: true,
      errorMessage: null,
      subdomain: `send.${name}`,
      verificationError: null,
      lastCheckedTime: null,
      dnsRecords: expect.any(Array),
    });
    const key = createPublicKey({ key: Buffer.from(domain.publicKey, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);

    const dkim = recordOf(domain, 'DKIM');
    expect(dkim).toEqual({
      type: 'TXT',
      name: expect.stringMatching(new RegExp(`^herald[0-9a-f]{8}\\._domainkey\\.${name.replaceAll('.', '\\.')}$`)),
      value: `v=DKIM1; k=rsa; p=${domain.publicKey}`,
      ttl: 'Auto',
      priority: null,
      status: 'NOT_STARTED',
      recommended: false,
    });
    expect(recordOf(domain, 'SPF')).toEqual({
      type: 'TXT',
      name: `send.${name}`,
      value: `v=spf1 include:${MAIL_DOMAIN} ~all`,
      ttl: 'Auto',
      priority: null,
      status: 'NOT_STARTED',
      recommended: false,
    });
    expect(recordOf(domain, 'MX')).toEqual({
      type: 'MX',
      name: `send.${name}`,
      value: MAIL_DOMAIN,
      ttl: 'Auto',
      priority: '10',
      status: 'NOT_STARTED',
      recommended: false,
    });
    expect(recordOf(domain, 'DMARC')).toEqual({
      type: 'TXT',
      name: `_dmarc.${name}`,
      value: 'v=DMARC1; p=none;',
      ttl: 'Auto',
      priority: null,
      status: 'NOT_STARTED',
      recommended: true,
    });
    expect(domain.dnsRecords).toHaveLength(4);
  });

  it('stores the DKIM private key encrypted, never as PEM, and it matches the public key', async () => {
    const domain = await createDomain(t.app, team.key);
    const row = await t.deps.db.selectFrom('domains').selectAll().where('id', '=', domain.id).executeTakeFirstOrThrow();
    expect(row.dkim_private_key).not.toContain('PRIVATE KEY');
    expect(row.dkim_private_key).toMatch(/^[A-Za-z0-9_-]+$/);
    const pem = t.deps.secrets.decrypt(row.dkim_private_key);
    expect(pem).toContain('-----BEGIN PRIVATE KEY-----');
    const derivedPublic = createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64');
    expect(derivedPublic).toBe(domain.publicKey);
  });

  it('gives every domain its own key and selector, also for the same name in two teams', async () => {
    const name = uniqueDomain();
    const mine = await createDomain(t.app, team.key, name);
    const theirs = await createDomain(t.app, other.key, name);
    expect(theirs.name).toBe(name);
    expect(theirs.publicKey).not.toBe(mine.publicKey);
    expect(recordOf(theirs, 'DKIM').name).not.toBe(recordOf(mine, 'DKIM').name);
  });

  it('refuses a name the team already has with 409 CONFLICT, and accepts it again once deleted', async () => {
    const name = uniqueDomain();
    const first = await createDomain(t.app, team.key, name);
    const again = await call(t.app, team.key, 'POST', '/v1/domains', { name: name.toUpperCase(), region: 'us-east-1' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: { code: 'CONFLICT', message: expect.stringContaining(name) } });
    expect((await call(t.app, team.key, 'DELETE', `/v1/domains/${first.id}`)).statusCode).toBe(200);
    const readded = await createDomain(t.app, team.key, name);
    expect(readded.id).not.toBe(first.id);
  });

  describe('input limits', () => {
    const post = (body: unknown) => call(t.app, team.key, 'POST', '/v1/domains', body);
    const expectBadRequest = async (body: unknown, field: string) => {
      const response = await post(body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'BAD_REQUEST', message: expect.stringContaining(field) } });
    };
    /** A name of exactly `length` characters: 63-character labels and a shorter last one. */
    const nameOfLength = (length: number) => {
      const unique = uniqueDomain('').slice(0, 11); // 'd' + 10 hex
      let name = unique + 'a'.repeat(63 - unique.length);
      while (name.length + 64 <= length) name += `.${'b'.repeat(63)}`;
      const rest = length - name.length - 1;
      return `${name}.${'c'.repeat(rest)}`;
    };

    it('lower-cases the name', async () => {
      const name = uniqueDomain();
      expect((await createDomain(t.app, team.key, name.toUpperCase())).name).toBe(name);
    });

    it('takes an internationalised name in its punycode form', async () => {
      const label = uniqueDomain('').slice(0, 11);
      expect((await createDomain(t.app, team.key, `${label}.bücher.example`)).name).toBe(
        `${label}.xn--bcher-kva.example`,
      );
    });

    it('accepts 253 characters and refuses 254', async () => {
      expect(nameOfLength(253)).toHaveLength(253);
      expect((await createDomain(t.app, team.key, nameOfLength(253))).name).toHaveLength(253);
      await expectBadRequest({ name: nameOfLength(254), region: 'us-east-1' }, 'name');
    });

    it('accepts a 63-character label and refuses 64', async () => {
      const label = uniqueDomain('').slice(0, 11);
      expect((await createDomain(t.app, team.key, `${label}${'x'.repeat(52)}.example.com`)).name).toHaveLength(63 + 12);
      await expectBadRequest({ name: `${label}${'x'.repeat(53)}.example.com`, region: 'us-east-1' }, 'name');
    });

    const badNames: [string, unknown][] = [
      ['a trailing dot', 'example.com.'],
      ['a single label', 'localhost'],
      ['an IP address', '192.168.1.10'],
      ['an underscore', 'my_domain.example.com'],
      ['a leading hyphen', '-bad.example.com'],
      ['an empty label', 'bad..example.com'],
      ['a space', 'bad name.example.com'],
      ['a URL', 'https://example.com'],
      ['an empty string', ''],
      ['a number', 42],
    ];
    for (const [what, name] of badNames) {
      it(`refuses a name with ${what}`, async () => {
        await expectBadRequest({ name, region: 'us-east-1' }, 'name');
      });
    }

    it('requires name and region', async () => {
      await expectBadRequest({ region: 'us-east-1' }, 'name');
      await expectBadRequest({ name: uniqueDomain() }, 'region');
    });

    it('accepts a 64-character region and refuses 65 or an empty one', async () => {
      const domain = await createDomain(t.app, team.key, uniqueDomain(), 'r'.repeat(64));
      expect(domain.region).toBe('r'.repeat(64));
      await expectBadRequest({ name: uniqueDomain(), region: 'r'.repeat(65) }, 'region');
      await expectBadRequest({ name: uniqueDomain(), region: '' }, 'region');
    });
  });
});
