// The inbound SMTP listener, spoken to over loopback by nodemailer and by a raw socket client: which
// recipients it takes, when it answers 250, its size, connection and per-address limits, STARTTLS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startSmtpListener,
  type InboundMessage,
  type SmtpListener,
  type SmtpListenerOptions,
} from '../../src/mx/smtp-listener.ts';
import { RawClient } from './raw-smtp-client.ts';

const OWNED = 'bounce+abc.0123456789abcdef@bounces.test';
const OWNED_TOO = 'bounce+def.0123456789abcdef@bounces.test';
const silent = pino({ level: 'silent' });

let listener: SmtpListener | null = null;
const received: InboundMessage[] = [];

async function start(overrides: Partial<SmtpListenerOptions> = {}): Promise<SmtpListener> {
  listener = await startSmtpListener({
    port: 0,
    host: '127.0.0.1',
    tls: null,
    logger: silent,
    hostname: 'mx.herald.test',
    acceptsRecipient: (address) => address === OWNED || address === OWNED_TOO,
    onMessage: async (message) => {
      received.push(message);
    },
    ...overrides,
  });
  return listener;
}

afterEach(async () => {
  await listener?.stop();
  listener = null;
  received.length = 0;
});

async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function metric(registry: Registry, name: string, labels = ''): Promise<number> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

/** Connections are given back a moment after the socket closes (smtp-server's onClose). */
async function waitForOpenConnections(registry: Registry, expected: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((await metric(registry, 'herald_smtp_connections_open')) !== expected) {
    if (Date.now() > deadline) throw new Error(`open connections did not reach ${expected}`);
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

describe('size limit', () => {
  it('advertises SIZE, answers an over-size message 552 and hands nothing on', async () => {
    const registry = new Registry();
    const { port } = await start({ maxMessageBytes: 1000, metrics: registry });
    const client = await RawClient.connect(port);
    expect((await client.read()).code).toBe(220);
    expect((await client.command('EHLO client.test')).text).toContain('SIZE 1000');
    // Declared too big: refused before any byte of it is sent.
    expect((await client.command('MAIL FROM:<a@remote.test> SIZE=1001')).code).toBe(552);
    expect((await client.command('MAIL FROM:<a@remote.test>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<${OWNED}>`)).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    expect((await client.command(`Subject: big\r\n\r\n${'y'.repeat(78)}\r\n`.repeat(20) + '.')).text).toMatch(
      /^552 5\.3\.4 /,
    );
    // At the limit exactly, it is taken.
    expect((await client.command('MAIL FROM:<a@remote.test>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<${OWNED}>`)).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    const body = `Subject: ok\r\n\r\n${'z'.repeat(1000 - 17)}\r\n`;
    expect(body.length).toBe(1000);
    expect((await client.command(`${body}.`)).code).toBe(250);
    client.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.raw.length).toBe(1000);
    expect(await metric(registry, 'herald_smtp_messages_refused_total', '{reason="size"}')).toBe(1);
  });
});

describe('per-connection limits', () => {
  it('answers 452 past the recipients of one message', async () => {
    const { port } = await start({ limits: { maxRecipientsPerMessage: 1 } });
    const client = await RawClient.connect(port);
    await client.envelope('a@remote.test', [OWNED]);
    expect((await client.command(`RCPT TO:<${OWNED_TOO}>`)).code).toBe(452);
    client.close();
  });

  it('closes with 421 past the messages of one connection', async () => {
    const { port } = await start({ limits: { maxMessagesPerConnection: 1 } });
    const client = await RawClient.connect(port);
    await client.envelope('a@remote.test', [OWNED]);
    expect((await client.command('DATA')).code).toBe(354);
    expect((await client.command('Subject: one\r\n\r\n.')).code).toBe(250);
    expect((await client.command('MAIL FROM:<a@remote.test>')).code).toBe(421);
    await client.closed;
    expect(received).toHaveLength(1);
  });

  it('closes with 421 past the commands of one connection, NOOPs included', async () => {
    const { port } = await start({ limits: { maxCommandsPerConnection: 5 } });
    const client = await RawClient.connect(port);
    expect((await client.read()).code).toBe(220);
    expect((await client.command('EHLO client.test')).code).toBe(250);
    for (let i = 0; i < 4; i++) expect((await client.command('NOOP')).code).toBe(250);
    expect((await client.command('NOOP')).code).toBe(421);
    await client.closed;
  });
});

describe('per-address limits', () => {
  it('refuses the connection past the concurrent limit with 421, and admits again once one closes', async () => {
    const registry = new Registry();
    const { port } = await start({ metrics: registry, limits: { maxConnectionsPerAddress: 2 } });
    const first = await RawClient.connect(port);
    const second = await RawClient.connect(port);
    expect((await first.read()).code).toBe(220);
    expect((await second.read()).code).toBe(220);
    const third = await RawClient.connect(port);
    const refused = await third.read();
    expect(refused.code).toBe(421);
    await third.closed;
    first.close();
    await waitForOpenConnections(registry, 1);
    const fourth = await RawClient.connect(port);
    expect((await fourth.read()).code).toBe(220);
    second.close();
    fourth.close();
    expect(await metric(registry, 'herald_smtp_connections_total', '{result="refused_concurrency"}')).toBe(1);
  });

  it('refuses past the connections per minute with 421 until the minute has passed', async () => {
    let now = Date.parse('2026-01-01T00:00:10Z');
    const { port } = await start({ now: () => now, limits: { connectionsPerMinutePerAddress: 3 } });
    for (let i = 0; i < 3; i++) {
      const client = await RawClient.connect(port);
      expect((await client.read()).code).toBe(220);
      client.close();
    }
    const refused = await RawClient.connect(port);
    expect((await refused.read()).code).toBe(421);
    now += 2 * 60_000;
    const later = await RawClient.connect(port);
    expect((await later.read()).code).toBe(220);
    later.close();
  });
});

describe('STARTTLS', () => {
  let dir: string;
  let cert: string;
  let key: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-smtp-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    key = fs.readFileSync(path.join(dir, 'key.pem'), 'utf8');
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('upgrades with the configured certificate (checked by the client) and marks the message secure', async () => {
    const { port } = await start({ tls: { cert, key } });
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      requireTLS: true,
      tls: { ca: [cert], servername: 'localhost' },
    });
    const info = await transport.sendMail({
      envelope: { from: 'a@remote.test', to: [OWNED] },
      raw: 'Subject: tls\r\n\r\nover TLS\r\n',
    });
    expect(info.accepted).toEqual([OWNED]);
    expect(received[0]!.secure).toBe(true);
    transport.close();
  });

  it('offers neither STARTTLS nor AUTH without a certificate', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    expect((await client.read()).code).toBe(220);
    const ehlo = await client.command('EHLO client.test');
    expect(ehlo.text).not.toMatch(/STARTTLS|AUTH/);
    expect((await client.command('STARTTLS')).code).toBeGreaterThanOrEqual(500);
    expect((await client.command('AUTH PLAIN AGFsaWNlAHNlY3JldA==')).code).toBeGreaterThanOrEqual(500);
    client.close();
  });
});

describe('stop', () => {
  it('stops listening', async () => {
    const running = await start();
    await running.stop();
    listener = null;
    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect(running.port, '127.0.0.1');
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
