// The log and smtp relay mail transports, the relay against a real SMTP server on loopback (the sink):
// per-recipient outcomes for 250, 4xx and 5xx at RCPT and at DATA, STARTTLS and AUTH, an unreachable
// relay; every message the sink receives passes DKIM (transport-support.ts).
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/adapters/dns.ts';
import {
  createMailTransport,
  type LoggedMessage,
  type MailTransport,
} from '../../src/adapters/mail-transport/index.ts';
import type { SmtpSink } from '../support/smtp-sink.ts';
import { closedPort, from, message, noRecord, transportTestBed } from './transport-support.ts';

const bed = transportTestBed();
let sink: SmtpSink;
let dns: DnsResolver;
beforeAll(() => {
  ({ sink, dns } = bed);
});

describe('log transport', () => {
  it('accepts every recipient and hands the message to the caller', async () => {
    const recorded: LoggedMessage[] = [];
    const transport = createMailTransport(
      { kind: 'log' },
      {
        dns,
        mxPort: 25,
        mailDomain: 'herald.test',
        record: (m) => {
          recorded.push(m);
        },
      },
    );
    const raw = await message(['a@example.test']);
    const result = await transport.send({ from, to: ['a@example.test', 'b@example.test'] }, raw);
    expect(result.recipients.map((r) => [r.recipient, r.status])).toEqual([
      ['a@example.test', 'accepted'],
      ['b@example.test', 'accepted'],
    ]);
    expect(recorded).toEqual([{ envelope: { from, to: ['a@example.test', 'b@example.test'] }, raw }]);
    expect(sink.messages).toHaveLength(0);
    await transport.close();
  });
});

describe('smtp relay transport', () => {
  let relay: MailTransport;
  beforeAll(() => {
    relay = createMailTransport(
      { kind: 'smtp', url: `smtp://herald:s%40cret@127.0.0.1:${sink.port}` },
      // The sink's certificate is self-signed; a real relay's is checked.
      {
        dns,
        mxPort: 25,
        mailDomain: 'herald.test',
        record: noRecord,
        relayTls: { rejectUnauthorized: false },
        timeoutMs: 5_000,
      },
    );
  });
  afterAll(() => relay.close());

  it('delivers the whole envelope in one transaction: 250 accepted for all', async () => {
    const to = ['a@example.test', 'b@other.test', 'hidden@example.test'];
    const raw = await message(to.slice(0, 2));
    const result = await relay.send({ from, to }, raw);
    expect(result.recipients.map((r) => [r.recipient, r.status, r.responseCode])).toEqual(
      to.map((r) => [r, 'accepted', 250]),
    );
    expect(result.recipients[0]!.response).toMatch(/^250 /);
    const [received] = await sink.waitForMessages(1);
    expect(received!.envelope).toEqual({ from, to });
    expect(received!.raw.equals(raw)).toBe(true);
    expect(received!.secure).toBe(true);
    expect(received!.user).toBe('herald');
    expect(received!.heloName).toBe('herald.test');
  });

  it('reports a 4xx at RCPT as temporary for every recipient', async () => {
    sink.respond('*', { stage: 'rcpt', code: 451, message: 'Try again later' });
    const result = await relay.send(
      { from, to: ['a@example.test', 'b@example.test'] },
      await message(['a@example.test']),
    );
    expect(result.recipients.map((r) => [r.status, r.responseCode])).toEqual([
      ['temporary', 451],
      ['temporary', 451],
    ]);
    expect(result.recipients[0]!.response).toMatch(/^451 Try again later/);
    expect(sink.messages).toHaveLength(0);
  });

  it('reports a 4xx at DATA as temporary for every recipient', async () => {
    sink.respond('*', { stage: 'data', code: 452, message: 'Out of storage' });
    const result = await relay.send(
      { from, to: ['a@example.test', 'b@example.test'] },
      await message(['a@example.test']),
    );
    expect(result.recipients.map((r) => [r.status, r.responseCode])).toEqual([
      ['temporary', 452],
      ['temporary', 452],
    ]);
  });

  it('reports a 5xx for one recipient as permanent for that one and accepted for the others', async () => {
    sink.respond('gone@example.test', { stage: 'rcpt', code: 550, message: 'No such user' });
    const to = ['a@example.test', 'gone@example.test', 'c@example.test'];
    const result = await relay.send({ from, to }, await message(to));
    expect(result.recipients.map((r) => [r.recipient, r.status, r.responseCode])).toEqual([
      ['a@example.test', 'accepted', 250],
      ['gone@example.test', 'permanent', 550],
      ['c@example.test', 'accepted', 250],
    ]);
    expect(result.recipients[1]!.response).toMatch(/^550 No such user/);
    const [received] = await sink.waitForMessages(1);
    expect(received!.envelope.to).toEqual(['a@example.test', 'c@example.test']);
  });

  it('reports a 5xx at DATA as permanent for every recipient', async () => {
    sink.respond('*', { stage: 'data', code: 554, message: 'Message rejected as spam' });
    const result = await relay.send({ from, to: ['a@example.test'] }, await message(['a@example.test']));
    expect(result.recipients).toMatchObject([{ status: 'permanent', responseCode: 554 }]);
  });

  it('reports an unreachable relay as temporary', async () => {
    const dead = createMailTransport(
      { kind: 'smtp', url: `smtp://127.0.0.1:${await closedPort()}` },
      { dns, mxPort: 25, mailDomain: 'herald.test', record: noRecord, timeoutMs: 2_000 },
    );
    const result = await dead.send({ from, to: ['a@example.test'] }, await message(['a@example.test']));
    expect(result.recipients).toMatchObject([{ recipient: 'a@example.test', status: 'temporary' }]);
    expect(result.recipients[0]!.responseCode).toBeUndefined();
    await dead.close();
  });
});
