// The inbound SMTP listener, spoken to over loopback by nodemailer and by a raw socket client: which
// recipients it takes, when it answers 250, what it hands on, and stopping. Its limits are in
// smtp-listener-limits.test.ts, STARTTLS in smtp-listener-tls.test.ts.
import net from 'node:net';
import nodemailer from 'nodemailer';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { listenerTestBed, metric, OWNED, OWNED_TOO, waitForOpenConnections } from './listener-support.ts';
import { RawClient } from './raw-smtp-client.ts';

const { received, start, forget } = listenerTestBed();

async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('recipients and hand-over', () => {
  it('accepts an owned recipient, hands on the exact bytes, and answers 250 only once onMessage resolved', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const registry = new Registry();
    const { port } = await start({
      metrics: registry,
      onMessage: async (message) => {
        received.push(message);
        await held;
      },
    });
    // A leading dot (dot-stuffed on the wire), 8-bit bytes and a long line must all come back as sent.
    const raw = Buffer.concat([
      Buffer.from(
        'From: <mailer-daemon@remote.test>\r\nTo: <' +
          OWNED +
          '>\r\nSubject: Undelivered\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n',
      ),
      Buffer.from('.a line that starts with a dot\r\n..two dots\r\n'),
      Buffer.from([0xc3, 0xa9, 0xe2, 0x82, 0xac, 0x0d, 0x0a]),
      Buffer.from(`${'x'.repeat(900)}\r\n`),
    ]);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    let answered = false;
    const sent = transport
      .sendMail({ envelope: { from: 'mailer-daemon@remote.test', to: [OWNED] }, raw })
      .then((info) => {
        answered = true;
        return info;
      });
    await until(() => received.length === 1, 'the hand-over');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    release();
    const info = await sent;
    expect(info.response).toMatch(/^250 2\.6\.0 /);
    expect(received[0]!.raw.equals(raw)).toBe(true);
    expect(received[0]).toMatchObject({
      mailFrom: 'mailer-daemon@remote.test',
      rcptTo: [OWNED],
      remoteAddress: '127.0.0.1',
      secure: false,
    });
    expect(await metric(registry, 'herald_smtp_messages_accepted_total')).toBe(1);
    expect(await metric(registry, 'herald_smtp_received_bytes_total')).toBe(raw.length);
    transport.close();
  });

  it('refuses a recipient it does not own with 550 5.1.1 at RCPT, and hands on only the owned ones', async () => {
    const registry = new Registry();
    const { port } = await start({ metrics: registry });
    const client = await RawClient.connect(port);
    await client.envelope('', [OWNED]);
    expect((await client.command('RCPT TO:<someone@elsewhere.test>')).text).toMatch(/^550 5\.1\.1 /);
    expect((await client.command('RCPT TO:<bounce+abc.ffffffffffffffff@bounces.test>')).text).toMatch(/^550 5\.1\.1 /);
    expect((await client.command('DATA')).code).toBe(354);
    expect((await client.command('Subject: x\r\n\r\nbody\r\n.')).code).toBe(250);
    client.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.rcptTo).toEqual([OWNED]);
    expect(received[0]!.mailFrom).toBe('');
    expect(await metric(registry, 'herald_smtp_recipients_refused_total', '{reason="unknown"}')).toBe(2);
  });

  it('answers DATA with 503 when no recipient was accepted', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    await client.envelope('a@remote.test', []);
    expect((await client.command('RCPT TO:<nobody@elsewhere.test>')).code).toBe(550);
    expect((await client.command('DATA')).code).toBe(503);
    client.close();
    expect(received).toHaveLength(0);
  });

  it('answers 451 4.3.0 when onMessage throws, and 451 at RCPT when the recipient check throws', async () => {
    const registry = new Registry();
    const { port } = await start({
      metrics: registry,
      acceptsRecipient: async (address) => {
        if (address === OWNED_TOO) throw new Error('database unavailable');
        return address === OWNED;
      },
      onMessage: async () => {
        throw new Error('storage unavailable');
      },
    });
    const client = await RawClient.connect(port);
    await client.envelope('a@remote.test', [OWNED]);
    expect((await client.command(`RCPT TO:<${OWNED_TOO}>`)).text).toMatch(/^451 4\.3\.0 /);
    expect((await client.command('DATA')).code).toBe(354);
    expect((await client.command('Subject: x\r\n\r\nbody\r\n.')).text).toMatch(/^451 4\.3\.0 /);
    // The connection stays usable: the sender may try again on it.
    expect((await client.command('NOOP')).code).toBe(250);
    client.close();
    expect(await metric(registry, 'herald_smtp_messages_refused_total', '{reason="handler_failed"}')).toBe(1);
    expect(await metric(registry, 'herald_smtp_messages_accepted_total')).toBe(0);
  });

  it('hands nothing on when the client disconnects in the middle of DATA', async () => {
    const registry = new Registry();
    const { port } = await start({ metrics: registry });
    const client = await RawClient.connect(port);
    await client.envelope('a@remote.test', [OWNED]);
    expect((await client.command('DATA')).code).toBe(354);
    client.socket.write('Subject: cut off\r\n\r\nhalf a mess');
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.close();
    await waitForOpenConnections(registry, 0);
    expect(received).toHaveLength(0);
  });
});

describe('stop', () => {
  it('stops listening', async () => {
    const running = await start();
    await running.stop();
    forget();
    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect(running.port, '127.0.0.1');
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
