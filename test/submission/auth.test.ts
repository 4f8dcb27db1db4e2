// Who may send: AUTH only after TLS (but from loopback), user herald with an API key that can send;
// wrong credentials 535 5.7.8, and an address with 10 failures in a window is answered 421 4.7.0
// until the window ends.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayAuthenticate } from '../../src/submission/auth.ts';
import { metric, refusal, startSubmissionBed, transport, type SubmissionBed } from './support.ts';
import { RawClient } from './raw-client.ts';

let bed: SubmissionBed;
beforeAll(async () => {
  bed = await startSubmissionBed();
});
afterAll(async () => bed?.close());

const WRONG_KEY = `hk_${'A'.repeat(43)}`;

describe('AUTH', () => {
  it('is taken only over TLS, except from loopback (the rule)', () => {
    expect(mayAuthenticate(false, '203.0.113.7')).toBe(false);
    expect(mayAuthenticate(false, '2001:db8::7')).toBe(false);
    expect(mayAuthenticate(true, '203.0.113.7')).toBe(true);
    for (const loopback of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])
      expect(mayAuthenticate(false, loopback), loopback).toBe(true);
    expect(mayAuthenticate(false, '127.0.0.1', false)).toBe(false);
  });

  it('refuses AUTH before STARTTLS with 538 5.7.11, and takes it after', async () => {
    const team = await bed.h.team();
    // A listener without the loopback exception stands for a client from elsewhere.
    const strict = await bed.start({ plaintextAuthFromLoopback: false });
    const client = await RawClient.connect(strict.port!);
    const reply = await client.login(team.key);
    expect(reply.text).toBe('538 5.7.11 Encryption required: use STARTTLS before AUTH');
    client.close();
    // nodemailer told to skip TLS is refused; over STARTTLS it is in.
    const plain = await refusal(
      nodemailer
        .createTransport({
          host: '127.0.0.1',
          port: strict.port!,
          ignoreTLS: true,
          auth: { user: 'herald', pass: team.key },
        })
        .sendMail({ from: team.from(), to: 'a@example.com', subject: 's', text: 't' }),
    );
    expect(plain.response).toBe('538 5.7.11 Encryption required: use STARTTLS before AUTH');
    const info = await transport(strict.port!, team.key).sendMail({
      from: team.from(),
      to: 'a@example.com',
      subject: 's',
      text: 't',
    });
    expect(info.response).toMatch(/^250 /);
  });

  it('takes AUTH PLAIN and AUTH LOGIN in plain text from loopback', async () => {
    const team = await bed.h.team();
    const client = await RawClient.connect(bed.listener.port!);
    expect((await client.login(team.key)).text).toMatch(/^235 /);
    client.close();
    // AUTH LOGIN: the user name and the key each on their own line, in base64.
    const login = await RawClient.connect(bed.listener.port!);
    await login.read();
    await login.command('EHLO app.test');
    expect((await login.command('AUTH LOGIN')).code).toBe(334);
    expect((await login.command(Buffer.from('herald').toString('base64'))).code).toBe(334);
    expect((await login.command(Buffer.from(team.key).toString('base64'))).text).toBe(
      '235 2.7.0 Authentication successful',
    );
    login.close();
  });

  it('answers 535 5.7.8 to a wrong key, a wrong user name and a key that cannot send', async () => {
    const team = await bed.h.team();
    const readonly = await team.makeKey('readonly');
    const send = (key: string, user?: string) =>
      refusal(
        transport(bed.listener.port!, key, { user }).sendMail({
          from: team.from(),
          to: 'a@example.com',
          subject: 's',
          text: 't',
        }),
      );
    for (const [key, user] of [
      [WRONG_KEY, 'herald'],
      ['not-a-key', 'herald'],
      [team.key, 'someone'],
    ] as const) {
      const refused = await send(key, user);
      expect(refused.responseCode, `${user}`).toBe(535);
      expect(refused.response).toBe('535 5.7.8 Authentication credentials invalid');
    }
    const kind = await send(readonly.key);
    expect(kind.response).toBe(
      '535 5.7.8 Authentication credentials invalid: a readonly key cannot send email; use a sending or full access key',
    );
    expect(
      await metric(bed.h.t.deps.metrics, 'herald_submission_auth_total', '{result="wrong_kind"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('locks an address out after 10 failures in 10 minutes: 421 4.7.0 until the window ends', async () => {
    const team = await bed.h.team();
    const { clock } = bed.h.t;
    // At the start of a window, so that the 10 failures fall in one.
    clock.set(new Date(Math.ceil(clock.now().getTime() / 600_000) * 600_000 + 1000));
    const listener = await bed.start();
    const from = '127.0.0.77';
    const early = await RawClient.connect(listener.port!, from);
    expect((await early.read()).code).toBe(220);
    expect((await early.command('EHLO app.test')).code).toBe(250);
    for (let failure = 1; failure <= 10; failure++) {
      const client = await RawClient.connect(listener.port!, from);
      expect((await client.login(WRONG_KEY)).text, `failure ${failure}`).toBe(
        '535 5.7.8 Authentication credentials invalid',
      );
      client.close();
    }
    // A connection opened before the lock: its AUTH is refused, even with the right key.
    expect((await early.command(`AUTH PLAIN ${Buffer.from(`\0herald\0${team.key}`).toString('base64')}`)).text).toBe(
      '421 4.7.0 Too many failed authentication attempts from your address; try again later',
    );
    // A new connection: refused at once.
    const locked = await RawClient.connect(listener.port!, from);
    expect((await locked.read()).text).toBe(
      '421 4.7.0 Too many failed authentication attempts from your address; try again later',
    );
    // Another address is not affected.
    const other = await RawClient.connect(listener.port!, '127.0.0.78');
    expect((await other.login(team.key)).code).toBe(235);
    other.close();
    // The next window: the address is let in again.
    clock.advance(600_000);
    const later = await RawClient.connect(listener.port!, from);
    expect((await later.login(team.key)).code).toBe(235);
    later.close();
  });
});
