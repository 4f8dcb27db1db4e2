// Each refusal's SMTP answer, with the API's words; Idempotency-Key as the HTTP header; and the 250
// only once the email's transaction committed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../support/factory.ts';
import { emails, storedEmailCount } from '../emails/support.ts';
import { messageData, RawClient } from './raw-client.ts';
import { emailIdOf, metric, readEmail, refusal, startSubmissionBed, transport, type SubmissionBed } from './support.ts';

let bed: SubmissionBed;
beforeAll(async () => {
  bed = await startSubmissionBed();
});
afterAll(async () => bed?.close());

const addresses = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

describe('refusals', () => {
  it('a domain-limited key sends from its domain; from another, 550 5.7.1 at MAIL FROM or after DATA', async () => {
    const team = await bed.h.team();
    const other = await team.addDomain();
    const limited = await team.makeKey('full', { domainId: team.domain.id });
    const smtp = transport(bed.listener.port!, limited.key);
    const mail = { to: 'ann@example.com', subject: 'limited', text: 'hi' };
    const info = await smtp.sendMail({ ...mail, from: team.from() });
    expect((await readEmail(bed.h, team.key, emailIdOf(info.response))).source).toBe('smtp');

    const atMailFrom = await refusal(smtp.sendMail({ ...mail, from: `hello@${other.name}` }));
    expect(atMailFrom.response).toBe(`550 5.7.1 This key may send only from its domain ${team.domain.name}`);
    // The envelope from its domain, the From header from the other: refused after DATA, in the API's words.
    const atData = await refusal(
      smtp.sendMail({ ...mail, from: `hello@${other.name}`, envelope: { from: team.from(), to: ['ann@example.com'] } }),
    );
    expect(atData.response).toBe(`550 5.7.1 from: this key may send only from its domain ${team.domain.name}`);
    expect(await storedEmailCount(bed.h.t, team.id)).toBe(1);
  });

  it('a from domain that is not a verified domain of the team: 550 5.7.1', async () => {
    const team = await bed.h.team();
    const refused = await refusal(
      transport(bed.listener.port!, team.key).sendMail({
        from: 'me@elsewhere.example',
        to: 'a@example.com',
        subject: 's',
        text: 't',
      }),
    );
    expect(refused.response).toBe('550 5.7.1 from: elsewhere.example is not a verified domain of this team');
  });

  it('more than 50 recipients: 452 4.5.3, at RCPT TO for the envelope and after DATA for the headers', async () => {
    const team = await bed.h.team();
    const client = await RawClient.connect(bed.listener.port!);
    expect((await client.login(team.key)).code).toBe(235);
    expect((await client.command(`MAIL FROM:<${team.from()}>`)).code).toBe(250);
    for (const rcpt of addresses(50, 'r')) expect((await client.command(`RCPT TO:<${rcpt}>`)).code).toBe(250);
    expect((await client.command('RCPT TO:<one-more@example.com>')).text).toBe('452 4.5.3 Error: too many recipients');
    client.close();

    const refused = await refusal(
      transport(bed.listener.port!, team.key).sendMail({
        from: team.from(),
        to: addresses(60, 'h'),
        subject: 'many',
        text: 'x',
        envelope: { from: team.from(), to: ['h0@example.com'] },
      }),
    );
    expect(refused.response).toBe('452 4.5.3 60 recipients across to, cc and bcc; at most 50 are allowed');
    expect(await storedEmailCount(bed.h.t, team.id)).toBe(0);
  });

  it("the plan's send limit: 452 4.7.0; the per-second API limit: 421 4.7.0", async () => {
    const team = await bed.h.team();
    const api = emails(bed.h.app, team.key);
    for (const prefix of ['a', 'b'])
      expect(
        (await api.send({ from: team.from(), to: addresses(50, prefix), subject: 'q', text: 'x' })).statusCode,
      ).toBe(200);
    const quota = await refusal(
      transport(bed.listener.port!, team.key).sendMail({
        from: team.from(),
        to: 'c@example.com',
        subject: 'q',
        text: 'x',
      }),
    );
    expect(quota.response).toBe('452 4.7.0 Daily send limit reached: the free plan allows 100 emails a day');

    const slow = await bed.h.team();
    await adminRequest(bed.h.app, 'PATCH', `/teams/${slow.id}`, { apiRateLimit: 1 });
    // The team's setup made API calls in this second of the test clock; the next one starts afresh.
    bed.h.t.clock.advance(1000);
    const client = await RawClient.connect(bed.listener.port!);
    expect((await client.login(slow.key)).code).toBe(235);
    // The test clock stands still: both messages fall in one second.
    expect((await client.command(`MAIL FROM:<${slow.from()}>`)).code).toBe(250);
    expect((await client.command('RSET')).code).toBe(250);
    expect((await client.command(`MAIL FROM:<${slow.from()}>`)).text).toBe(
      '421 4.7.0 Rate limit of 1 requests per second exceeded; retry after 1 s',
    );
    expect((await client.read()).code).toBe(0);
  });

  it('a message over the size limit: SIZE advertised, 552 5.3.4', async () => {
    const team = await bed.h.team();
    const small = await bed.start({ limits: { maxMessageBytes: 4096 } });
    const client = await RawClient.connect(small.port!);
    await client.read();
    expect((await client.command('EHLO app.test')).text).toMatch(/^250[- ]SIZE 4096$/m);
    client.close();
    const refused = await refusal(
      transport(small.port!, team.key).sendMail({
        from: team.from(),
        to: 'a@example.com',
        subject: 'big',
        text: 'x'.repeat(10_000),
      }),
    );
    expect(refused.response).toBe('552 5.3.4 Error: message exceeds fixed maximum message size 4096');
    expect(
      await metric(bed.h.t.deps.metrics, 'herald_submission_messages_refused_total', '{reason="size"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('Idempotency-Key: the same message twice is one email; another message under the key is refused', async () => {
    const team = await bed.h.team();
    const smtp = transport(bed.listener.port!, team.key);
    const mail = { from: team.from(), to: 'ann@example.com', subject: 'once', text: 'only once' };
    const first = await smtp.sendMail({ ...mail, headers: { 'Idempotency-Key': 'order-1' } });
    const id = emailIdOf(first.response);
    // A retry: nodemailer writes a new Message-ID and Date; the email is the same.
    const again = await smtp.sendMail({ ...mail, headers: { 'Idempotency-Key': 'order-1' } });
    expect(again.response).toBe(`250 2.6.0 Already queued as ${id} (Idempotency-Key)`);
    expect(await storedEmailCount(bed.h.t, team.id)).toBe(1);
    const reused = await refusal(
      smtp.sendMail({ ...mail, text: 'another', headers: { 'Idempotency-Key': 'order-1' } }),
    );
    expect(reused.response).toBe('554 5.5.0 Idempotency-Key was already used with a different request');

    // Resend's header name too; a refused send frees its key for the retry.
    const bad = await refusal(
      smtp.sendMail({ ...mail, from: 'me@elsewhere.example', headers: { 'Resend-Idempotency-Key': 'order-2' } }),
    );
    expect(bad.responseCode).toBe(550);
    const retried = await smtp.sendMail({
      ...mail,
      subject: 'retry',
      headers: { 'Resend-Idempotency-Key': 'order-2' },
    });
    expect(emailIdOf(retried.response)).not.toBe(id);
    expect(await storedEmailCount(bed.h.t, team.id)).toBe(2);
    expect(
      await metric(bed.h.t.deps.metrics, 'herald_submission_messages_accepted_total', '{result="replayed"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('answers 250 only once the email is committed', async () => {
    const team = await bed.h.team();
    const { db, metrics } = bed.h.t.deps;
    const client = await RawClient.connect(bed.listener.port!);
    expect((await client.login(team.key)).code).toBe(235);
    expect((await client.command(`MAIL FROM:<${team.from()}>`)).code).toBe(250);
    expect((await client.command('RCPT TO:<ann@example.com>')).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    const data = messageData({ From: team.from(), To: 'ann@example.com', Subject: 'Held' });
    const before = await metric(metrics, 'herald_submission_received_bytes_total');

    // A transaction that holds the emails table: the send's insert waits behind it (on PGlite, the
    // only connection does).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction().execute(async (tx) => {
      await sql`LOCK TABLE emails IN EXCLUSIVE MODE`.execute(tx);
      locked();
      await held;
    });
    await isLocked;
    client.write(data);
    // The whole message is in...
    await expect.poll(() => metric(metrics, 'herald_submission_received_bytes_total')).toBeGreaterThan(before);
    // ...and no answer while the email cannot be written.
    expect(client.pending).toBe(0);
    release();
    await holder;
    const reply = await client.read();
    expect(reply.text).toMatch(/^250 2\.6\.0 Queued as em_/);
    const id = emailIdOf(reply.text);
    expect((await db.selectFrom('emails').select('source').where('id', '=', id).executeTakeFirst())?.source).toBe(
      'smtp',
    );
    client.close();
  });
});
