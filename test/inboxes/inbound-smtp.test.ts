// Mail for team inboxes end to end: over SMTP into Herald's own listener (as `herald smtp` runs it)
// and out through /v1/inbound/messages, against the real database. Recipients refused at RCPT,
// +tags, SIZE, every field, threading, contacts, spam, the webhook event, cross-team 404, access,
// pagination and signed attachment links. Where the bytes live, and their retention: stored-bytes.test.ts.
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest, bearer } from '../support/factory.ts';
import { createWebhook } from '../webhooks/support.ts';
import type { SendingTeam } from '../emails/support.ts';
import {
  createInbox,
  crlf,
  plainMessage,
  startInboxBedWithInbox,
  uniqueLocal,
  MAIL_DOMAIN,
  type InboxBed,
} from './support.ts';

let bed: InboxBed;
let team: SendingTeam;
let inbox: { id: string; name: string; address: string };

beforeAll(async () => {
  ({ bed, team, inbox } = await startInboxBedWithInbox('support'));
}, 180_000);
afterAll(async () => bed?.close());

async function list(key: string, query = '') {
  const response = await bed.get(key, `/v1/inbound/messages${query}`);
  return response;
}

async function newest(key = team.key, query = '') {
  const response = await list(key, `?limit=1${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0];
}

/** A line-level SMTP exchange: each reply exactly as written. */
async function rawDialogue(port: number, lines: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = '';
  const replies: string[] = [];
  const nextReply = () =>
    new Promise<string>((resolve) => {
      const check = () => {
        // A complete reply ends with a line "NNN text" (no dash after the code).
        const match = /(^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(buffer);
        if (!match) return;
        const end = match.index + match[0].length;
        const reply = buffer.slice(0, end);
        buffer = buffer.slice(end);
        socket.off('data', onData);
        resolve(reply);
      };
      const onData = (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        check();
      };
      socket.on('data', onData);
      check();
    });
  replies.push(await nextReply());
  for (const line of lines) {
    socket.write(`${line}\r\n`);
    replies.push(await nextReply());
  }
  socket.end();
  return replies;
}

describe('the SMTP listener for inboxes', () => {
  it('refuses an unknown recipient with 550 5.1.1 at RCPT, before DATA; takes known ones in any case and with +tags', async () => {
    const replies = await rawDialogue(bed.listener.port, [
      'EHLO mx.sender.test',
      'MAIL FROM:<alice@sender.test>',
      `RCPT TO:<nobody-${uniqueLocal()}@${MAIL_DOMAIN}>`,
      `RCPT TO:<${inbox.address.toUpperCase()}>`,
      `RCPT TO:<${inbox.address.replace('@', '+billing.2026@')}>`,
      'QUIT',
    ]);
    expect(replies[0]).toMatch(/^220 /);
    expect(replies[1]).toMatch(/\r\n250[- ]SIZE 10485760\r\n/);
    expect(replies[3]).toMatch(/^550 5\.1\.1 /);
    expect(replies[4]).toMatch(/^250 /);
    expect(replies[5]).toMatch(/^250 /);
  });

  it('refuses a deleted inbox at RCPT at once, though the listener had just taken its mail', async () => {
    const gone = await createInbox(bed.w, team.id, `${uniqueLocal('gone')}@${MAIL_DOMAIN}`, 'Gone');
    const rcpt = async () =>
      (
        await rawDialogue(bed.listener.port, [
          'EHLO mx.sender.test',
          'MAIL FROM:<alice@sender.test>',
          `RCPT TO:<${gone.address}>`,
          'QUIT',
        ])
      )[3]!;
    expect(await rcpt()).toMatch(/^250 /); // now remembered as live
    const deleted = await adminRequest(bed.w.h.app, 'DELETE', `/teams/${team.id}/inboxes/${gone.id}`);
    expect(deleted).toMatchObject({ deleted: true });
    // The deletion's notification reaches the listener within milliseconds of the commit.
    await expect.poll(rcpt, { timeout: 5_000, interval: 20 }).toMatch(/^550 5\.1\.1 /);
  });

  it('delivers a +tagged, upper-cased recipient to the inbox once', async () => {
    const subject = `tagged ${uniqueLocal()}`;
    const tagged = inbox.address.replace('@', '+orders@');
    await bed.deliver(
      { from: 'alice@sender.test', to: [tagged, inbox.address.toUpperCase()] },
      plainMessage({ to: tagged, subject }),
    );
    const data = (await list(team.key, '?limit=5'))
      .json()
      .data.filter((m: { subject: string }) => m.subject === subject);
    expect(data).toHaveLength(1);
    expect(data[0].inbox).toEqual({ id: inbox.id, name: 'Support' });
  });

  it('enforces the SIZE it advertises: a declared or actual larger message is refused and nothing is stored', async () => {
    const replies = await rawDialogue(bed.listener.port, [
      'EHLO mx.sender.test',
      `MAIL FROM:<alice@sender.test> SIZE=${10 * 1024 * 1024 + 1}`,
      'QUIT',
    ]);
    expect(replies[2]).toMatch(/^552 /);
    const before = await bed.w.h.t.deps.db
      .selectFrom('inbox_messages')
      .select('id')
      .where('team_id', '=', team.id)
      .execute();
    const big = plainMessage({ to: inbox.address, text: 'x'.repeat(76) + ('\r\n' + 'y'.repeat(998)).repeat(10_600) });
    await expect(bed.deliver({ from: 'alice@sender.test', to: inbox.address }, big)).rejects.toThrow(/552/);
    const after = await bed.w.h.t.deps.db
      .selectFrom('inbox_messages')
      .select('id')
      .where('team_id', '=', team.id)
      .execute();
    expect(after).toHaveLength(before.length);
  });
});

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

describe('threading, contacts and replies to sent mail', () => {
  it('threads three messages by In-Reply-To/References and links a reply to the email Herald sent', async () => {
    const { app } = bed.w.h.t;
    const sent = await app.inject({
      method: 'POST',
      url: '/api/v1/emails',
      headers: bearer(team.key),
      payload: { from: team.from(), to: 'frank@sender.test', subject: 'Offer', text: 'Our offer' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const emailId = sent.json().emailId ?? sent.json().id;
    const ours = `<${emailId}@${MAIL_DOMAIN}>`;
    const first = `<${uniqueLocal('t1')}@sender.test>`;
    const second = `<${uniqueLocal('t2')}@sender.test>`;
    const third = `<${uniqueLocal('t3')}@sender.test>`;
    await bed.deliver(
      { from: 'frank@sender.test', to: inbox.address },
      plainMessage({
        to: inbox.address,
        subject: 'Re: Offer',
        messageId: first,
        headers: `In-Reply-To: ${ours}\r\nReferences: ${ours}\r\n`,
      }),
    );
    const one = await newest();
    expect(one.inReplyToEmailId).toBe(emailId);
    expect(one.conversationId).toBe(one.messageId);
    await bed.deliver(
      { from: 'frank@sender.test', to: inbox.address },
      plainMessage({
        to: inbox.address,
        subject: 'Re: Offer',
        messageId: second,
        headers: `In-Reply-To: ${first}\r\nReferences: ${ours} ${first}\r\n`,
      }),
    );
    const two = await newest();
    // References also name Herald's email: the nearest reference decides, and it is still the thread.
    expect(two.conversationId).toBe(one.messageId);
    expect(two.inReplyToEmailId).toBe(emailId);
    await bed.deliver(
      { from: 'frank@sender.test', to: inbox.address },
      plainMessage({
        to: inbox.address,
        subject: 'Re: Offer',
        messageId: third,
        headers: `References: ${first} ${second}\r\n`,
      }),
    );
    const three = await newest();
    expect(three.conversationId).toBe(one.messageId);
    expect(three.inReplyToEmailId).toBeNull();
  });

  it("does not thread into another team's messages or emails", async () => {
    const other = await bed.w.h.team();
    const otherInbox = await createInbox(bed.w, other.id, `${uniqueLocal('other')}@${MAIL_DOMAIN}`);
    const id = `<${uniqueLocal('x')}@sender.test>`;
    await bed.deliver({ from: 'a@sender.test', to: inbox.address }, plainMessage({ to: inbox.address, messageId: id }));
    const mine = await newest();
    await bed.deliver(
      { from: 'a@sender.test', to: otherInbox.address },
      plainMessage({
        to: otherInbox.address,
        messageId: `<${uniqueLocal('y')}@sender.test>`,
        headers: `In-Reply-To: ${id}\r\n`,
      }),
    );
    const theirs = await newest(other.key);
    expect(theirs.conversationId).toBe(theirs.messageId);
    expect(theirs.conversationId).not.toBe(mine.conversationId);
  });

  it("names the sender's contact in the team's books", async () => {
    const { app } = bed.w.h.t;
    const book = await app.inject({
      method: 'POST',
      url: '/api/v1/contactBooks',
      headers: bearer(team.key),
      payload: { name: 'Clients' },
    });
    expect(book.statusCode, book.body).toBeLessThan(300);
    const contact = await app.inject({
      method: 'POST',
      url: `/api/v1/contactBooks/${book.json().id}/contacts`,
      headers: bearer(team.key),
      payload: { email: 'grace@sender.test' },
    });
    expect(contact.statusCode, contact.body).toBeLessThan(300);
    await bed.deliver(
      { from: 'grace@sender.test', to: inbox.address },
      plainMessage({ from: 'Grace <Grace@Sender.test>', to: inbox.address }),
    );
    expect((await newest()).contactId).toBe(contact.json().contactId ?? contact.json().id);
  });
});

describe('spam', () => {
  it('classifies GTUBE as spam: kept and readable by id, left out of the list, evented with its verdict', async () => {
    const subject = `gtube ${uniqueLocal()}`;
    await bed.deliver(
      { from: 'spammer@sender.test', to: inbox.address },
      plainMessage({
        to: inbox.address,
        subject,
        text: 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X',
      }),
    );
    const row = await bed.w.h.t.deps.db
      .selectFrom('inbox_messages')
      .select(['id', 'spam_verdict'])
      .where('team_id', '=', team.id)
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
    expect(row.spam_verdict).toBe('spam');
    const one = await bed.get(team.key, `/v1/inbound/messages/${row.id}`);
    expect(one.json()).toMatchObject({ messageId: row.id, spamVerdict: 'spam' });
    const all = (await list(team.key, '?limit=100')).json().data.map((m: { messageId: string }) => m.messageId);
    expect(all).not.toContain(row.id);
  });
});

describe('the list', () => {
  it('pages newest first with limit 1 to 100 (default 25), a signed cursor and an inbox filter (id or address)', async () => {
    const t2 = await bed.w.h.team();
    const a = await createInbox(bed.w, t2.id, `${uniqueLocal('a')}@${MAIL_DOMAIN}`, 'A');
    const b = await createInbox(bed.w, t2.id, `${uniqueLocal('b')}@${MAIL_DOMAIN}`, 'B');
    for (let i = 0; i < 27; i++) {
      bed.w.h.t.clock.advance(1_000);
      await bed.deliver(
        { from: 'x@sender.test', to: i % 3 === 0 ? b.address : a.address },
        plainMessage({ to: a.address, subject: `n${i}` }),
      );
    }
    const first = (await list(t2.key)).json();
    expect(first.data).toHaveLength(25);
    expect(first.data[0].subject).toBe('n26');
    const second = (await list(t2.key, `?cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    expect(second.data.map((m: { subject: string }) => m.subject)).toEqual(['n1', 'n0']);
    expect(second.nextCursor).toBeNull();
    const onlyB = (await list(t2.key, `?inbox=${b.id}&limit=100`)).json().data;
    expect(onlyB).toHaveLength(9);
    expect(
      (await list(t2.key, `?inbox=${encodeURIComponent(b.address.toUpperCase())}&limit=100`)).json().data,
    ).toHaveLength(9);
    expect((await list(t2.key, `?inbox=inbox_none`)).json().data).toEqual([]);
    expect((await list(t2.key, '?limit=100')).statusCode).toBe(200);
    expect((await list(t2.key, '?limit=1')).json().data).toHaveLength(1);
    for (const bad of [
      '?limit=0',
      '?limit=101',
      '?limit=x',
      '?cursor=abc',
      `?inbox=${b.id}&cursor=${encodeURIComponent(first.nextCursor)}`,
    ])
      expect((await list(t2.key, bad)).statusCode, bad).toBe(400);
    // Another team's cursor is not this team's.
    expect((await list(team.key, `?cursor=${encodeURIComponent(first.nextCursor)}`)).statusCode).toBe(400);
  });
});
