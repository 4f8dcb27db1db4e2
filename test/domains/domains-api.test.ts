// Domains through HTTP: the records to publish, reads, delete, input limits, tenancy and the access
// rules (full access keys only; a domain-limited key reaches its own domain only), with the contract's
// flat `{error: string}` bodies.
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSendFrom } from '../../src/domains/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, createTeam, type KeyKind, type TestTeam } from '../support/factory.ts';
import { call, createDomain, getDomainJson, recordOf, uniqueDomain } from './support.ts';

const MAIL_DOMAIN = 'mail.herald.test';

let t: TestApp;
let team: TestTeam;
let other: TestTeam;
beforeAll(async () => {
  t = await createTestApp({ config: { mailDomain: MAIL_DOMAIN } });
  team = await createTeam(t.app);
  other = await createTeam(t.app);
});
afterAll(() => t.close());

const flat = { error: expect.any(String) };

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

describe('reads and delete', () => {
  it("lists the team's domains, newest first, and reads one", async () => {
    const own = await createTeam(t.app);
    const a = await createDomain(t.app, own.key);
    const b = await createDomain(t.app, own.key);
    const list = await call(t.app, own.key, 'GET', '/v1/domains');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((d: { id: number }) => d.id)).toEqual([b.id, a.id]);
    expect(await getDomainJson(t.app, own.key, a.id)).toEqual(a);
  });

  it('delete answers {id, success, message}; the domain is gone from every read and cannot send', async () => {
    const own = await createTeam(t.app);
    const kept = await createDomain(t.app, own.key);
    const gone = await createDomain(t.app, own.key);
    const deleted = await call(t.app, own.key, 'DELETE', `/v1/domains/${gone.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: gone.id, success: true, message: expect.any(String) });

    const get = await call(t.app, own.key, 'GET', `/v1/domains/${gone.id}`);
    expect(get.statusCode).toBe(404);
    expect(get.json()).toEqual(flat);
    expect((await call(t.app, own.key, 'GET', '/v1/domains')).json().map((d: { id: number }) => d.id)).toEqual([
      kept.id,
    ]);
    for (const [method, path] of [
      ['PUT', `/v1/domains/${gone.id}/verify`],
      ['DELETE', `/v1/domains/${gone.id}`],
    ] as const) {
      const response = await call(t.app, own.key, method, path);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(flat);
    }
    expect(await canSendFrom(t.deps.db, own.id, gone.name)).toBe(false);
  });

  it('a path id that is not a number is 400 (flat on verify and delete)', async () => {
    const get = await call(t.app, team.key, 'GET', '/v1/domains/abc');
    expect(get.statusCode).toBe(400);
    expect(get.json().error.code).toBe('BAD_REQUEST');
    for (const [method, path] of [
      ['PUT', '/v1/domains/abc/verify'],
      ['DELETE', '/v1/domains/1.5'],
    ] as const) {
      const response = await call(t.app, team.key, method, path);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(flat);
    }
  });

  it('PUT …/verify answers {message} at once and sets the domain PENDING and verifying', async () => {
    const domain = await createDomain(t.app, team.key);
    const response = await call(t.app, team.key, 'PUT', `/v1/domains/${domain.id}/verify`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: expect.any(String) });
    const read = await getDomainJson(t.app, team.key, domain.id);
    expect(read).toMatchObject({ status: 'PENDING', isVerifying: true });
  });
});

describe('tenancy', () => {
  it("another team's domain answers 404 with the flat body, exactly like a missing one", async () => {
    const domain = await createDomain(t.app, team.key);
    const missingId = 2_000_000_000;
    const cases = [
      ['GET', (id: number) => `/v1/domains/${id}`],
      ['PUT', (id: number) => `/v1/domains/${id}/verify`],
      ['DELETE', (id: number) => `/v1/domains/${id}`],
    ] as const;
    for (const [method, path] of cases) {
      const theirs = await call(t.app, other.key, method, path(domain.id));
      const missing = await call(t.app, other.key, method, path(missingId));
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual(flat);
      expect(theirs.json()).toEqual(missing.json());
    }
    expect((await call(t.app, other.key, 'GET', '/v1/domains')).json().map((d: { id: number }) => d.id)).not.toContain(
      domain.id,
    );
    // Untouched by the other team's delete attempt.
    expect((await getDomainJson(t.app, team.key, domain.id)).id).toBe(domain.id);
  });
});

describe('access', () => {
  const routes = (id: number) =>
    [
      ['GET', '/v1/domains', undefined],
      ['POST', '/v1/domains', { name: uniqueDomain(), region: 'us-east-1' }],
      ['GET', `/v1/domains/${id}`, undefined],
      ['PUT', `/v1/domains/${id}/verify`, undefined],
      ['DELETE', `/v1/domains/${id}`, undefined],
    ] as const;

  const otherKinds: KeyKind[] = ['readonly', 'sending', 'sandbox', 'live_ai'];
  for (const kind of otherKinds) {
    it(`a ${kind} key is refused with 403 and the flat body on every endpoint`, async () => {
      const domain = await createDomain(t.app, team.key);
      const { key } = await team.makeKey(kind);
      for (const [method, path, body] of routes(domain.id)) {
        const response = await call(t.app, key, method, path, body);
        expect(response.statusCode, `${method} ${path}`).toBe(403);
        expect(response.json()).toEqual(flat);
      }
      expect((await getDomainJson(t.app, team.key, domain.id)).id).toBe(domain.id);
    });
  }

  it("a domain-limited full key lists only its domain and gets 403 (flat) for the team's others", async () => {
    const own = await createTeam(t.app);
    const mine = await createDomain(t.app, own.key);
    const sibling = await createDomain(t.app, own.key);
    const { key } = await own.makeKey('full', { domainId: mine.id });

    const list = await call(t.app, key, 'GET', '/v1/domains');
    expect(list.json().map((d: { id: number }) => d.id)).toEqual([mine.id]);
    expect((await call(t.app, key, 'GET', `/v1/domains/${mine.id}`)).statusCode).toBe(200);
    expect((await call(t.app, key, 'PUT', `/v1/domains/${mine.id}/verify`)).statusCode).toBe(200);

    for (const [method, path, body] of routes(sibling.id).slice(1)) {
      const response = await call(t.app, key, method, path, body);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json()).toEqual(flat);
    }
    expect((await getDomainJson(t.app, own.key, sibling.id)).id).toBe(sibling.id);

    expect((await call(t.app, key, 'DELETE', `/v1/domains/${mine.id}`)).statusCode).toBe(200);
    expect((await call(t.app, key, 'GET', '/v1/domains')).json()).toEqual([]);
  });

  it('401 without a key: the usual body on reads, flat on verify and delete', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/domains' });
    expect(list.statusCode).toBe(401);
    expect(list.json().error.code).toBe('UNAUTHORIZED');
    const verify = await t.app.inject({ method: 'PUT', url: '/api/v1/domains/1/verify' });
    expect(verify.statusCode).toBe(401);
    expect(verify.json()).toEqual(flat);
  });
});

describe('admin: keys limited to a domain', () => {
  it("makes a key for one of the team's domains; 404 for a missing, deleted or another team's domain", async () => {
    const domain = await createDomain(t.app, team.key);
    const made = await adminRequest(t.app, 'POST', `/teams/${team.id}/api-keys`, { kind: 'full', domainId: domain.id });
    expect(made.domainId).toBe(domain.id);

    const gone = await createDomain(t.app, team.key);
    await call(t.app, team.key, 'DELETE', `/v1/domains/${gone.id}`);
    const theirs = await createDomain(t.app, other.key);
    for (const domainId of [gone.id, theirs.id, 2_000_000_000]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/admin/v1/teams/${team.id}/api-keys`,
        headers: { authorization: `Bearer ${t.deps.config.adminToken}` },
        payload: { kind: 'full', domainId },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'domain not found' } });
    }
  });

  it("the database refuses a key naming another team's domain even past the API", async () => {
    const theirs = await createDomain(t.app, other.key);
    await expect(
      t.deps.db
        .insertInto('api_keys')
        .values({
          id: `key_fk_${theirs.id}`,
          team_id: team.id,
          kind: 'full',
          key_hash: Buffer.from(`fk-${theirs.id}`),
          key_hint: 'x',
          member_id: null,
          domain_id: theirs.id,
        })
        .execute(),
    ).rejects.toMatchObject({ code: '23503' });
  });
});
