// MARKETING mail: every recipient gets a copy of their own, carrying their own signed unsubscribe link
// in the body ({{unsubscribeUrl}}) and in List-Unsubscribe with List-Unsubscribe-Post (RFC 8058); the
// one-click POST stops the team's MARKETING mail to that address and only that.
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  emailJson,
  startRelayDelivery,
  uniqueRecipient,
  waitForStatus,
  type RelayDelivery,
} from './delivery-support.ts';
import { call, emails, type EmailHarness, type SendingTeam } from './support.ts';

let d: RelayDelivery;
let h: EmailHarness;
let team: SendingTeam;

beforeAll(async () => {
  d = await startRelayDelivery();
  ({ h, team } = d);
});
afterEach(async () => {
  await d.auditDkim();
});
afterAll(async () => d?.close());

/** The URL of a raw message's List-Unsubscribe header (unfolded), if any. */
const listUnsubscribeOf = (raw: Buffer) =>
  /^List-Unsubscribe:\s*<([^>]+)>/im.exec(raw.toString('utf8').replace(/\r?\n[ \t]+/g, ' '))?.[1];

const messagesOf = (emailId: string) => d.messagesOf(emailId);

async function marketingTemplate(): Promise<string> {
  const created = await call(h.app, team.key, 'POST', '/v1/templates', {
    name: 'News',
    subject: 'News for {{name}}',
    type: 'MARKETING',
    html: '<p>Hello {{name}}</p>',
  });
  expect(created.statusCode, created.body).toBe(200);
  return created.json().id;
}

describe('MARKETING delivery', () => {
  it('sends each recipient a copy with their own unsubscribe link, in the body and in List-Unsubscribe', async () => {
    const templateId = await marketingTemplate();
    const [a, b] = [uniqueRecipient('news-a'), uniqueRecipient('news-b')];
    const id = await emails(h.app, team.key).sent({
      from: team.from(),
      to: [a, b],
      templateId,
      variables: { name: 'Ada' },
    });
    await waitForStatus(h, id, 'SENT');
    const copies = messagesOf(id);
    expect(copies.map((m) => m.envelope.to)).toEqual(expect.arrayContaining([[a], [b]]));
    expect(copies).toHaveLength(2);
    const links = new Set<string>();
    for (const copy of copies) {
      const parsed = await simpleParser(copy.raw);
      const link = listUnsubscribeOf(copy.raw);
      expect(link).toMatch(/^https?:\/\//);
      expect(copy.raw.toString('utf8')).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(parsed.html).toContain(`href="${link}"`);
      expect(parsed.html).not.toContain('unsubscribe.herald.invalid');
      expect(parsed.subject).toBe('News for Ada');
      links.add(link!);
    }
    expect(links.size).toBe(2);
  });

  it('the one-click POST unsubscribes that address from MARKETING mail only', async () => {
    const templateId = await marketingTemplate();
    const [a, b] = [uniqueRecipient('stop-a'), uniqueRecipient('stop-b')];
    const api = emails(h.app, team.key);
    const first = await api.sent({ from: team.from(), to: [a, b], templateId });
    await waitForStatus(h, first, 'SENT');
    const copyOfA = messagesOf(first).find((m) => m.envelope.to[0] === a)!;
    const link = listUnsubscribeOf(copyOfA.raw)!;
    const oneClick = await h.app.inject({
      method: 'POST',
      url: new URL(link).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);

    const second = await api.sent({ from: team.from(), to: [a, b], templateId });
    await waitForStatus(h, second, 'SENT');
    expect(messagesOf(second).map((m) => m.envelope.to)).toEqual([[b]]);
    const events = (await emailJson(h, team.key, second)).emailEvents;
    expect(events[0]).toMatchObject({ status: 'SUPPRESSED', data: { recipients: [a], reason: 'unsubscribed' } });
    // Transactional mail still reaches the address.
    const receipt = await api.sent({ from: team.from(), to: a, subject: 'Receipt', text: 'paid' });
    await waitForStatus(h, receipt, 'SENT');
    expect(messagesOf(receipt)).toHaveLength(1);
  });
});
