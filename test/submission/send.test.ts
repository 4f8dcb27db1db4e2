// An application sending through SMTP submission gets exactly the email the API would have made,
// read back through GET /api/v1/emails with source "smtp": over STARTTLS and over implicit TLS,
// bcc from the envelope, attachments and an inline image with its Content-ID (kept through delivery).
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueRunner } from '../../src/queue/index.ts';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';
import { startDeliveryRunner, waitForStatus } from '../emails/delivery-support.ts';
import { emails } from '../emails/support.ts';
import { emailIdOf, readEmail, startSubmissionBed, transport, type SubmissionBed } from './support.ts';

let bed: SubmissionBed;
let runner: QueueRunner;
beforeAll(async () => {
  bed = await startSubmissionBed();
});
afterAll(async () => {
  await runner?.stop();
  await bed?.close();
});

describe('SMTP submission', () => {
  it('stores a message sent over STARTTLS as the API would, with source "smtp", bcc from the envelope', async () => {
    const team = await bed.h.team();
    const info = await transport(bed.listener.port!, team.key).sendMail({
      from: `"Shop" <${team.from('orders')}>`,
      to: ['ann@example.com', '"Bob B" <bob@example.com>'],
      cc: 'carol@example.com',
      bcc: ['dave@example.com', 'erin@example.com'],
      replyTo: team.from('help'),
      subject: 'Your order ✓',
      text: 'Thanks for your order.',
      html: '<p>Thanks for your <b>order</b>.</p>',
      headers: { 'X-Order-Id': '1234', 'X-Mailer': 'ignored: Herald writes its own' },
    });
    expect(info.response).toMatch(/^250 2\.6\.0 Queued as em_/);
    expect(info.accepted).toHaveLength(5);
    const id = emailIdOf(info.response);
    const email = await readEmail(bed.h, team.key, id);
    expect(email).toMatchObject({
      id,
      teamId: team.id,
      source: 'smtp',
      from: `"Shop" <${team.from('orders')}>`,
      to: ['ann@example.com', '"Bob B" <bob@example.com>'],
      cc: 'carol@example.com',
      bcc: ['dave@example.com', 'erin@example.com'],
      replyTo: team.from('help'),
      subject: 'Your order ✓',
      text: 'Thanks for your order.',
      html: '<p>Thanks for your <b>order</b>.</p>',
      latestStatus: 'QUEUED',
    });
    expect(email.emailEvents.map((e) => e.status)).toEqual(['QUEUED']);
    const row = await bed.h.t.deps.db
      .selectFrom('emails')
      .select(['headers', 'source'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // The name as the message wrote it (nodemailer writes X-Order-ID); X-Mailer is Herald's to write.
    expect(row).toEqual({ headers: { 'X-Order-ID': '1234' }, source: 'smtp' });

    // The list shows it too, beside an email the API sent.
    const apiId = await emails(bed.h.app, team.key).sent({
      from: team.from(),
      to: 'x@example.com',
      subject: 'API',
      text: 'x',
    });
    const list = await emails(bed.h.app, team.key).list();
    const sources = Object.fromEntries(
      (list.json() as { data: { id: string; source: string }[] }).data.map((e) => [e.id, e.source]),
    );
    expect(sources).toEqual({ [id]: 'smtp', [apiId]: 'api' });
  });

  it('takes implicit TLS, and the usesend and resend user names', async () => {
    const team = await bed.h.team();
    for (const [user, secure] of [
      ['usesend', true],
      ['resend', false],
      ['HERALD', true],
    ] as const) {
      const port = secure ? bed.listener.tlsPort! : bed.listener.port!;
      const info = await transport(port, team.key, { secure, user }).sendMail({
        from: team.from(),
        to: 'ann@example.com',
        subject: `via ${user}`,
        text: 'hi',
      });
      const email = await readEmail(bed.h, team.key, emailIdOf(info.response));
      expect(email).toMatchObject({ source: 'smtp', subject: `via ${user}`, to: 'ann@example.com' });
    }
  });

  it('a sending access key sends, and reads back only what it sent', async () => {
    const team = await bed.h.team();
    const sending = await team.makeKey('sending');
    const info = await transport(bed.listener.port!, sending.key).sendMail({
      from: team.from(),
      to: 'ann@example.com',
      subject: 'sending key',
      text: 'hi',
    });
    expect((await readEmail(bed.h, sending.key, emailIdOf(info.response))).source).toBe('smtp');
  });

  it('keeps attachments, and an inline image with its Content-ID through delivery', async () => {
    runner ??= await startDeliveryRunner(bed.h, bed.h.t.deps.mailTransport);
    const team = await bed.h.team();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const pdf = Buffer.from('%PDF-1.4 not really');
    const info = await transport(bed.listener.port!, team.key).sendMail({
      from: team.from(),
      to: 'ann@example.com',
      subject: 'With pictures',
      html: '<p>Logo: <img src="cid:logo@shop"></p>',
      attachments: [
        { filename: 'logo.png', content: png, cid: 'logo@shop' },
        { filename: 'invoice.pdf', content: pdf },
        { content: 'no name', contentType: 'text/plain' },
      ],
    });
    const id = emailIdOf(info.response);
    const email = await readEmail(bed.h, team.key, id);
    // Mail with only HTML stores text null (a text part is made at delivery), as the API does.
    expect(email).toMatchObject({ html: '<p>Logo: <img src="cid:logo@shop"></p>', text: null, source: 'smtp' });
    const stored = await bed.h.t.deps.db
      .selectFrom('email_attachments')
      .select(['position', 'filename', 'content_id', 'content'])
      .where('email_id', '=', id)
      .orderBy('position')
      .execute();
    expect(stored.map((a) => [a.filename, a.content_id])).toEqual([
      ['logo.png', 'logo@shop'],
      ['invoice.pdf', null],
      ['attachment-3.txt', null],
    ]);
    expect(Buffer.from(stored[0]!.content)).toEqual(png);
    expect(Buffer.from(stored[1]!.content)).toEqual(pdf);

    await waitForStatus(bed.h, id, 'SENT');
    const outbox = await bed.h.app.inject({
      method: 'GET',
      url: `/admin/v1/outbox?teamId=${team.id}`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const [sent] = outbox.json() as { raw: string }[];
    const raw = Buffer.from(sent!.raw);
    expect(raw.toString()).toMatch(/Content-Type: multipart\/related/);
    const parsed = await simpleParser(raw, { keepCidLinks: true });
    expect(parsed.html).toContain('src="cid:logo@shop"');
    const byName = Object.fromEntries(parsed.attachments.map((a) => [a.filename, a]));
    expect(byName['logo.png']).toMatchObject({ cid: 'logo@shop', contentDisposition: 'inline', related: true });
    expect(byName['logo.png']!.content).toEqual(png);
    expect(byName['invoice.pdf']).toMatchObject({ contentDisposition: 'attachment' });
    expect(byName['invoice.pdf']!.cid).toBeUndefined();
  });

  it('takes the same contentId through the HTTP API', async () => {
    const team = await bed.h.team();
    const response = await emails(bed.h.app, team.key).send({
      from: team.from(),
      to: 'ann@example.com',
      subject: 'API inline',
      html: '<img src="cid:pic">',
      attachments: [{ filename: 'pic.png', content: 'iVBORw0KGgo=', contentId: 'pic' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const bad = await emails(bed.h.app, team.key).send({
      from: team.from(),
      to: 'ann@example.com',
      subject: 'API inline',
      html: '<img src="cid:pic">',
      attachments: [{ filename: 'pic.png', content: 'iVBORw0KGgo=', contentId: '<pic>' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/attachments.*contentId/);
  });
});
