// A message received over SMTP and read through /v1/inbound/messages: every field, the sanitised html,
// signed attachment links, the original bytes, the email.received event, cross-team 404 and access.
// Where the bytes live, and their retention: stored-bytes.test.ts.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/factory.ts';
import { createWebhook } from '../webhooks/support.ts';
import type { SendingTeam } from '../emails/support.ts';
import { crlf, startInboxSuite, uniqueLocal, type InboxBed, type InboxSuite } from './support.ts';

let bed: InboxBed, team: SendingTeam, inbox: InboxSuite['inbox'];
let list: InboxSuite['list'], newest: InboxSuite['newest'];
beforeAll(async () => void ({ bed, team, inbox, list, newest } = await startInboxSuite('support')), 180_000);
afterAll(async () => bed?.close());

const MULTIPART = (to: string, messageId: string) =>
  crlf(`From: "Bob Jones" <Bob.Jones@Sender.test>
To: ${to}, "Carol" <carol@sender.test>
Cc: dave@sender.test, Erin <erin@sender.test>
Subject: =?UTF-8?B?UXVhcnRlcmx5IHJlcG9ydCDinIU=?=
Date: Wed, 25 Nov 2026 10:00:00 +0000
Message-ID: ${messageId}
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="MIXED"

--MIXED
Content-Type: multipart/related; boundary="REL"

--REL
Content-Type: multipart/alternative; boundary="ALT"

--ALT
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

Here is the report =E2=9C=85

--ALT
Content-Type: text/html; charset=utf-8

<p onclick="steal()">Here is the <b>report</b></p><script>alert(1)</script><img src="cid:logo123@sender.test" alt="logo"><img src="https://tracker.example/pixel.gif"><a href="javascript:alert(1)">x</a><form action="https://evil.example"><input name="p"></form><iframe src="https://evil.example"></iframe>
--ALT--

--REL
Content-Type: image/png
Content-ID: <logo123@sender.test>
Content-Disposition: inline; filename="logo.png"
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--REL--

--MIXED
Content-Type: application/pdf; name="=?UTF-8?Q?R=C3=A9sum=C3=A9_2026.pdf?="
Content-Disposition: attachment; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf
Content-Transfer-Encoding: base64

JVBERi0xLjQKJcOkw7zDtsOfCg==
--MIXED--
`);

describe('a received message', () => {
  let message: Record<string, unknown> & { messageId: string; attachments: { url: string; filename: string }[] };
  let raw: Buffer;
  let webhookId: string;

  beforeAll(async () => {
    webhookId = (await createWebhook(bed.w, team.key, { url: bed.w.url(), eventTypes: ['email.received'] })).id;
    await bed.w.h.t.app.inject({
      method: 'POST',
      url: '/api/v1/contactBooks',
      headers: bearer(team.key),
      payload: { name: 'People' },
    });
    raw = MULTIPART(inbox.address, `<${uniqueLocal('q')}@sender.test>`);
    await bed.deliver({ from: 'bounces@sender.test', to: inbox.address }, raw);
    message = await newest();
  }, 120_000);

  it('has every field of the contract', () => {
    expect(Object.keys(message).sort()).toEqual(
      [
        'attachments',
        'cc',
        'contactId',
        'conversationId',
        'from',
        'html',
        'inReplyToEmailId',
        'inbox',
        'messageId',
        'receivedAt',
        'spamVerdict',
        'strippedText',
        'subject',
        'text',
        'to',
      ].sort(),
    );
    expect(message).toMatchObject({
      conversationId: message.messageId,
      inbox: { id: inbox.id, name: 'Support' },
      from: 'Bob Jones <Bob.Jones@Sender.test>',
      to: [inbox.address, 'Carol <carol@sender.test>'],
      cc: ['dave@sender.test', 'Erin <erin@sender.test>'],
      subject: 'Quarterly report ✅',
      text: 'Here is the report ✅\n',
      strippedText: 'Here is the report ✅',
      contactId: null,
      inReplyToEmailId: null,
      spamVerdict: 'clean',
    });
    expect(message.messageId).toMatch(/^inmsg_/);
    expect(new Date(message.receivedAt as string).toISOString()).toBe(message.receivedAt);
    expect(message.attachments.map((a) => [a.filename, (a as unknown as { size: number }).size])).toEqual([
      ['logo.png', 8],
      ['Résumé 2026.pdf', 19],
    ]);
  });

  it('has sanitised html: no script, handlers, forms, frames or javascript: links; remote images moved; cid images linked', () => {
    const html = message.html as string;
    expect(html).toContain('Here is the <b>report</b>');
    for (const banned of ['<script', 'onclick', '<form', '<input', '<iframe', 'javascript:', ' src="https://tracker'])
      expect(html).not.toContain(banned);
    expect(html).toContain('data-remote-src="https://tracker.example/pixel.gif"');
    const logo = message.attachments[0]!.url;
    expect(html).toContain(`src="${logo.replace(/&/g, '&amp;')}"`);
  });

  it('serves attachments at signed links for 24 hours; a tampered or expired link gives no bytes', async () => {
    const { app } = bed.w.h.t;
    const url = new URL(message.attachments[1]!.url);
    const ok = await app.inject({ method: 'GET', url: url.pathname });
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.toString('latin1').startsWith('%PDF-1.4')).toBe(true);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.headers['content-disposition']).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf");
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    const token = url.pathname.split('/').pop()!;
    const tampered = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
    const bad = await app.inject({ method: 'GET', url: `/inbound/attachments/${tampered}` });
    expect(bad.statusCode).toBe(404);
    expect(bad.body).not.toContain('PDF');
    bed.w.h.t.clock.advance(24 * 60 * 60 * 1000 - 2_000);
    expect((await app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(200);
    bed.w.h.t.clock.advance(2_000);
    const expired = await app.inject({ method: 'GET', url: url.pathname });
    expect(expired.statusCode).toBe(403);
    expect(expired.body).not.toContain('PDF');
    // A fresh read signs fresh links.
    const again = (await bed.get(team.key, `/v1/inbound/messages/${message.messageId}`)).json();
    expect((await app.inject({ method: 'GET', url: new URL(again.attachments[1].url).pathname })).statusCode).toBe(200);
  });

  it('returns the original bytes exactly as received', async () => {
    const response = await bed.get(team.key, `/v1/inbound/messages/${message.messageId}/raw`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('message/rfc822');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${message.messageId}.eml"`);
    expect(response.rawPayload.equals(raw)).toBe(true);
  });

  it('emits email.received to the webhook with the message id, inbox, addresses, subject and links', async () => {
    await bed.w.settle();
    const bodies = bed.w.receiver.requests
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.type === 'email.received' && b.data.messageId === message.messageId);
    // Delivery is at least once (a slow answer is retried): one call recorded, delivered at least once.
    const calls = await bed.w.h.t.deps.db
      .selectFrom('webhook_calls')
      .select('id')
      .where('team_id', '=', team.id)
      .where('type', '=', 'email.received')
      .where(sql<boolean>`payload::jsonb -> 'data' ->> 'messageId' = ${message.messageId}`)
      .execute();
    expect(calls).toHaveLength(1);
    expect(bodies.length).toBeGreaterThanOrEqual(1);
    expect(bodies[0].data).toMatchObject({
      messageId: message.messageId,
      conversationId: message.messageId,
      inbox: { id: inbox.id, name: 'Support', address: inbox.address },
      from: 'Bob Jones <Bob.Jones@Sender.test>',
      subject: 'Quarterly report ✅',
      spamVerdict: 'clean',
      attachments: [
        { filename: 'logo.png', contentType: 'image/png', size: 8 },
        { filename: 'Résumé 2026.pdf', contentType: 'application/pdf', size: 19 },
      ],
    });
    expect(bodies[0].data.links.message).toMatch(new RegExp(`/api/v1/inbound/messages/${message.messageId}$`));
    expect(JSON.stringify(bodies[0])).not.toContain('<b>report</b>');
    expect(webhookId).toBeTruthy();
  });

  it('is 404 for another team, and needs a full access key', async () => {
    const other = await bed.w.h.team();
    expect((await bed.get(other.key, `/v1/inbound/messages/${message.messageId}`)).statusCode).toBe(404);
    expect((await bed.get(other.key, `/v1/inbound/messages/${message.messageId}/raw`)).statusCode).toBe(404);
    expect((await list(other.key)).json().data).toEqual([]);
    for (const kind of ['readonly', 'sending', 'sandbox', 'live_ai'] as const) {
      const { key } = await team.makeKey(kind);
      for (const path of ['', `/${message.messageId}`, `/${message.messageId}/raw`])
        expect((await bed.get(key, `/v1/inbound/messages${path}`)).statusCode, `${kind} ${path}`).toBe(403);
    }
    expect((await bed.w.h.t.app.inject({ method: 'GET', url: '/api/v1/inbound/messages' })).statusCode).toBe(401);
  });
});
