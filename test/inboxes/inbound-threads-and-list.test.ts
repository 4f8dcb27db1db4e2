// Received mail through /v1/inbound/messages: threading by In-Reply-To/References (and replies to
// mail Herald sent), the sender's contact, spam kept out of the list, and the list's pages and filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/factory.ts';
import type { SendingTeam } from '../emails/support.ts';
import {
  createInbox,
  plainMessage,
  startInboxSuite,
  uniqueLocal,
  MAIL_DOMAIN,
  type InboxBed,
  type InboxSuite,
} from './support.ts';

let bed: InboxBed, team: SendingTeam, inbox: InboxSuite['inbox'];
let list: InboxSuite['list'], newest: InboxSuite['newest'];
beforeAll(async () => void ({ bed, team, inbox, list, newest } = await startInboxSuite('support')), 180_000);
afterAll(async () => bed?.close());

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
