// A corpus of real-shaped messages over SMTP into the listener and out through the API: every client's
// reply stripped to its new part, forwarded mail, 8-bit headers, a legacy charset, attachments with
// non-ASCII names, broken MIME and a message with no headers at all, each stored with every field.
// Also the spam verdict from rspamd (HERALD_RSPAMD_URL, a fake rspamd on loopback) and what happens
// when rspamd cannot be reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendingTeam } from '../emails/support.ts';
import { FakeRspamd } from '../support/fake-rspamd.ts';
import {
  APPLE_REPLY,
  BROKEN_MIME,
  EIGHT_BIT_HEADERS,
  FORWARDED,
  GMAIL_REPLY,
  LATIN1_BODY,
  NO_HEADERS,
  NON_ASCII_ATTACHMENTS,
  OUTLOOK_REPLY,
  type CorpusMessage,
} from './corpus.ts';
import {
  createInbox,
  MAIL_DOMAIN,
  plainMessage,
  sendRaw,
  startInboxBed,
  startListener,
  uniqueLocal,
  type InboxBed,
  type Listener,
} from './support.ts';

let bed: InboxBed;
let team: SendingTeam;
let address: string;
let rspamd: FakeRspamd;
let withRspamd: Listener;

beforeAll(async () => {
  bed = await startInboxBed();
  team = await bed.w.h.team();
  address = (await createInbox(bed.w, team.id, `${uniqueLocal('corpus')}@${MAIL_DOMAIN}`)).address;
  rspamd = await FakeRspamd.start();
  withRspamd = await startListener(bed.w.h.t.deps, { rspamdUrl: rspamd.url });
}, 180_000);
afterAll(async () => {
  await withRspamd?.service.stop();
  await rspamd?.close();
  await bed?.close();
});

async function receive(message: CorpusMessage) {
  await bed.deliver({ from: 'sender@example.test', to: address }, message.raw(address));
  const response = await bed.get(team.key, '/v1/inbound/messages?limit=1');
  expect(response.statusCode).toBe(200);
  const [received] = response.json().data;
  expect(Object.keys(received)).toHaveLength(15);
  return received;
}

describe('the corpus', () => {
  it('Gmail: multipart/alternative, the reply without the quote', async () => {
    const m = await receive(GMAIL_REPLY);
    expect(m).toMatchObject({
      from: 'Sam Doe <sam.doe@gmail.test>',
      subject: 'Re: Invoice 1042',
      strippedText: 'Paid this morning, thanks!',
    });
    expect(m.html).toContain('<div dir="ltr">Paid this morning, thanks!</div>');
    expect(m.html).toContain('<blockquote');
  });

  it('Outlook: iso-8859-1 quoted-printable, the reply without the From/Sent block; style sheet dropped', async () => {
    const m = await receive(OUTLOOK_REPLY);
    expect(m.strippedText).toBe('The issue is fixed now, merci.');
    expect(m.to).toEqual([`Acme Support <${address}>`]);
    expect(m.html).not.toContain('<style');
    expect(m.html).not.toContain('margin-top:0');
    expect(m.html).toContain('The issue is fixed now, merci.');
  });

  it('Apple Mail: the reply without "Sent from my iPhone" and the quote', async () => {
    const m = await receive(APPLE_REPLY);
    expect(m.strippedText).toBe('Got it, thanks!');
    expect(m.html).toBeNull();
  });

  it('forwarded mail: the forward note and the forwarded message', async () => {
    const m = await receive(FORWARDED);
    expect(m.subject).toBe('Fwd: Contract draft');
    expect(m.text).toContain('Please see below.');
    expect(m.text).toContain('---------- Forwarded message ---------');
  });

  it('8-bit headers and a legacy charset decode to Unicode', async () => {
    const eight = await receive(EIGHT_BIT_HEADERS);
    expect(eight).toMatchObject({ from: 'José Müller <jose@example.test>', subject: 'Grüße aus München – 東京' });
    expect(eight.text).toContain('Schöne Grüße!');
    const latin = await receive(LATIN1_BODY);
    expect(latin.subject).toBe('Café');
    expect(latin.text).toContain('Un café crème.');
  });

  it('attachments with non-ASCII names (encoded words and RFC 2231)', async () => {
    const m = await receive(NON_ASCII_ATTACHMENTS);
    expect(m.attachments.map((a: { filename: string; contentType: string }) => [a.filename, a.contentType])).toEqual([
      ['отчёт.csv', 'text/csv'],
      ['写真.jpg', 'image/jpeg'],
    ]);
    const link = await bed.w.h.app.inject({ method: 'GET', url: new URL(m.attachments[0].url).pathname });
    expect(link.body.replace(/\r\n/g, '\n')).toBe('a,b\n1,2');
  });

  it('broken MIME and a message without headers are stored, never lost', async () => {
    const broken = await receive(BROKEN_MIME);
    expect(broken.subject).toBe('Broken');
    const bare = await receive(NO_HEADERS);
    expect(bare).toMatchObject({ from: '', to: [], cc: [], subject: '' });
    expect(bare.text).toContain('body with a NUL');
    expect(bare.text).not.toContain('\u0000');
    const raw = await bed.get(team.key, `/v1/inbound/messages/${bare.messageId}/raw`);
    expect(raw.rawPayload.equals(NO_HEADERS.raw(address))).toBe(true);
  });
});

describe('rspamd (HERALD_RSPAMD_URL)', () => {
  async function deliverVia(text: string) {
    const subject = `rspamd ${uniqueLocal()}`;
    bed.w.h.t.clock.advance(1_000);
    await sendRaw(
      withRspamd.port,
      { from: 'sender@example.test', to: address },
      plainMessage({ to: address, subject, text }),
    );
    await withRspamd.service.drained();
    return bed.w.h.t.deps.db
      .selectFrom('inbox_messages')
      .select(['id', 'spam_verdict', 'spam_details'])
      .where('team_id', '=', team.id)
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
  }

  it("classifies by rspamd's /checkv2 answer, sending the envelope", async () => {
    const before = rspamd.requests.length;
    const ham = await deliverVia('hello');
    expect(ham.spam_verdict).toBe('clean');
    expect(ham.spam_details).toMatchObject({ engine: 'rspamd', action: 'no action' });
    const request = rspamd.requests[before]!;
    expect(request).toMatchObject({ method: 'POST', path: '/checkv2' });
    expect(request.headers.ip).toBe('127.0.0.1');
    expect(request.headers.from).toBe('sender@example.test');
    expect(request.headers.rcpt).toBe(address);
    expect(request.body).toContain('hello');
    expect((await deliverVia('buy now rspamd-spam')).spam_verdict).toBe('spam');
    rspamd.enqueue({ action: 'greylist' });
    expect((await deliverVia('maybe')).spam_verdict).toBe('suspicious');
  });

  it('falls back to the built-in checks when rspamd fails', async () => {
    rspamd.enqueue({ status: 500 });
    const fallback = await deliverVia('XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X');
    expect(fallback.spam_verdict).toBe('spam');
    expect(fallback.spam_details).toMatchObject({ engine: 'herald', rules: expect.arrayContaining(['GTUBE']) });
  });
});
