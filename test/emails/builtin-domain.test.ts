// Herald's own mail domain (HERALD_MAIL_DOMAIN) as a sending domain every team has out of the box:
// only to the team's members (403 otherwise, nothing stored), for free and pro teams alike, never
// listed in GET /v1/domains, delivered with Herald's own DKIM key as `herald admin dns` publishes it.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinDnsRecords } from '../../src/domains/index.ts';
import { rsaKeyFromSeed } from '../../src/domains/builtin-domain.ts';
import { Secrets } from '../../src/platform/crypto.ts';
import type { QueueRunner } from '../../src/queue/index.ts';
import { adminRequest, bearer, createTeam, type TestTeam } from '../support/factory.ts';
import {
  expectDkimPass,
  harnessDnsServer,
  MAIL_DOMAIN,
  startDeliveryRunner,
  waitForStatus,
} from './delivery-support.ts';
import { emails, startEmailHarness, storedEmailCount, type EmailHarness } from './support.ts';
import { TestDnsServer } from '../support/dns-server.ts';

let h: EmailHarness;
let dns: TestDnsServer;
let runner: QueueRunner;

beforeAll(async () => {
  dns = await TestDnsServer.start();
  h = await startEmailHarness({ dns });
  runner = await startDeliveryRunner(h, h.t.deps.mailTransport);
  // What the operator publishes in the zone of HERALD_MAIL_DOMAIN.
  for (const record of builtinDnsRecords(h.t.deps.secrets, MAIL_DOMAIN))
    if (record.type === 'TXT') dns.setTxt(record.name, record.value);
});
afterAll(async () => {
  await runner?.stop();
  await h?.close();
});

async function ownerOf(team: TestTeam): Promise<string> {
  const members = (await adminRequest(h.app, 'GET', `/teams/${team.id}/members`)) as { id: number; email: string }[];
  return members.find((m) => m.id === team.ownerId)!.email;
}

const outboxOf = async (teamId: number) =>
  (await adminRequest(h.app, 'GET', `/outbox?teamId=${teamId}`)) as {
    id: string;
    emailId: string;
    raw: string;
  }[];

describe.each(['free', 'pro'] as const)("sending from Herald's own domain (%s plan)", (plan) => {
  it('sends to a member of the team, DKIM-signed with the published key, with a text part made from the HTML', async () => {
    const team = await createTeam(h.app, { plan });
    const owner = await ownerOf(team);
    const id = await emails(h.app, team.key).sent({
      from: `Herald <Onboarding@${MAIL_DOMAIN.toUpperCase()}>`,
      to: owner.toUpperCase(),
      subject: 'First email',
      html: '<p>Hello <b>there</b></p>',
    });
    const row = await h.t.deps.db
      .selectFrom('emails')
      .select('domain_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.domain_id).toBeNull();
    await waitForStatus(h, id, 'SENT');
    const [stored] = await outboxOf(team.id);
    expect(stored!.emailId).toBe(id);
    const raw = Buffer.from(stored!.raw);
    await expectDkimPass(raw, harnessDnsServer(h), 'built-in domain message');
    const parsed = await simpleParser(raw);
    expect(parsed.text?.trim()).toBe('Hello there');
  });

  it('refuses any recipient who is not a member with 403 saying how to add a domain, storing nothing', async () => {
    const team = await createTeam(h.app, { plan });
    const owner = await ownerOf(team);
    for (const payload of [
      { to: 'stranger@example.test' },
      { to: owner, cc: 'stranger@example.test' },
      { to: owner, bcc: ['stranger@example.test'] },
    ]) {
      const response = await emails(h.app, team.key).send({
        from: `hello@${MAIL_DOMAIN}`,
        subject: 'No',
        text: 'no',
        ...payload,
      });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.body).toContain('stranger@example.test');
      expect(response.body).toContain('POST /v1/domains');
    }
    // Another team's member is a stranger too.
    const other = await createTeam(h.app, { plan });
    const response = await emails(h.app, team.key).send({
      from: `hello@${MAIL_DOMAIN}`,
      to: await ownerOf(other),
      subject: 'No',
      text: 'no',
    });
    expect(response.statusCode).toBe(403);
    expect(await storedEmailCount(h.t, team.id)).toBe(0);
  });

  it('is not listed in GET /v1/domains, and a batch with one outsider stores nothing', async () => {
    const team = await createTeam(h.app, { plan });
    const owner = await ownerOf(team);
    const list = await h.app.inject({ method: 'GET', url: '/api/v1/domains', headers: bearer(team.key) });
    expect(list.json()).toEqual([]);
    const message = { from: `hello@${MAIL_DOMAIN}`, subject: 'Hi', text: 'hi' };
    const batch = await emails(h.app, team.key).batch([
      { ...message, to: owner },
      { ...message, to: 'stranger@example.test' },
    ]);
    expect(batch.statusCode).toBe(403);
    expect(batch.body).toContain('[1].to');
    expect(await storedEmailCount(h.t, team.id)).toBe(0);
    const ok = await emails(h.app, team.key).batch([{ ...message, to: owner }]);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('herald admin dns (GET /admin/v1/dns)', () => {
  it('gives the DKIM record of the key that signs, and the same key for the same HERALD_SECRET', async () => {
    const body = (await adminRequest(h.app, 'GET', '/dns')) as {
      mailDomain: string;
      records: { type: string; name: string; value: string }[];
    };
    expect(body.mailDomain).toBe(MAIL_DOMAIN);
    expect(body.records[0]).toMatchObject({ type: 'TXT', name: `herald._domainkey.${MAIL_DOMAIN}` });
    expect(body.records[0]!.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    expect(body.records.map((r) => r.type)).toEqual(['TXT', 'TXT', 'MX', 'TXT']);
    const again = builtinDnsRecords(new Secrets(h.t.deps.config.secret!), MAIL_DOMAIN);
    expect(again[0]!.value).toBe(body.records[0]!.value);
  });

  it('derives different keys from different seeds', () => {
    const a = rsaKeyFromSeed(Buffer.alloc(32, 1)).export({ format: 'jwk' });
    const b = rsaKeyFromSeed(Buffer.alloc(32, 2)).export({ format: 'jwk' });
    expect(a.n).not.toBe(b.n);
    expect(Buffer.from(a.n!, 'base64url').length).toBe(256);
  });
});
