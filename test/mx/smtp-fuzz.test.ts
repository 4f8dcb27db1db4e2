// The listener faces the whole internet: broken dialogues and broken MIME must never take the process
// down. A seeded fuzz (same seed, same dialogues, so a failure can be replayed) throws a few hundred
// malformed sessions at it over raw sockets, many of them carrying broken MIME all the way to
// onMessage, which parses them with mailparser as the real consumer will. Afterwards the listener
// must still accept a well-formed message over STARTTLS, have given back every connection it
// admitted, and nothing may have reached uncaughtException or unhandledRejection.
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpListener, type InboundMessage, type SmtpListener } from '../../src/mx/smtp-listener.ts';
import { MAX_BYTES, OWNED, plan, play, prng, sleep } from './fuzz-dialogues.ts';
import { selfSignedCertificate } from './listener-support.ts';

const SEED = 0x5eed_2026;
const DIALOGUES = 400;
const PARALLEL = 24;

describe('the SMTP listener under malformed input', () => {
  let cert: string;
  let listener: SmtpListener;
  const registry = new Registry();
  const received: InboundMessage[] = [];
  const crashes: unknown[] = [];
  let parsed = 0;
  let parseFailures = 0;
  const onCrash = (error: unknown) => crashes.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    const certificate = selfSignedCertificate();
    cert = certificate.cert;
    listener = await startSmtpListener({
      port: 0,
      host: '127.0.0.1',
      tls: certificate,
      maxMessageBytes: MAX_BYTES,
      // Every dialogue comes from 127.0.0.1: the per-address limits would otherwise be all it tests.
      limits: {
        connectionsPerMinutePerAddress: 1_000_000,
        connectionsPerMinutePerNetwork: 1_000_000,
        maxConnectionsPerAddress: 1_000,
        maxConnectionsPerNetwork: 1_000,
        greetingTimeoutMs: 2_000,
        idleTimeoutMs: 2_000,
        closeTimeoutMs: 1_000,
      },
      logger: pino({ level: 'silent' }),
      metrics: registry,
      hostname: 'mx.herald.test',
      acceptsRecipient: async (address) => {
        if (address.startsWith('boom')) throw new Error('recipient lookup failed');
        return OWNED.includes(address);
      },
      onMessage: async (message) => {
        received.push(message);
        // What the real consumer does with a bounce: parse it. A parser failure is that message's
        // problem (logged, refused), never the process's.
        try {
          await simpleParser(message.raw);
          parsed += 1;
        } catch {
          parseFailures += 1;
        }
        // Chosen by content, not by arrival order, so that a run replays exactly.
        if (message.raw.length % 10 === 3) throw new Error('storage hiccup');
      },
    });
  });

  afterAll(async () => {
    await listener?.stop();
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  });

  it(
    `survives ${DIALOGUES} seeded broken dialogues and still accepts a well-formed message`,
    { timeout: 30_000 },
    async () => {
      const rng = prng(SEED);
      const plans = Array.from({ length: DIALOGUES }, () => plan(rng));
      let next = 0;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < plans.length) await play(listener.port, plans[next++]!);
        }),
      );

      expect(crashes).toEqual([]);
      // The broken MIME really reached the hand-over and the parser, not just the protocol layer.
      expect(received.length).toBeGreaterThan(50);
      expect(parsed + parseFailures).toBe(received.length);
      for (const message of received) expect(message.raw.length).toBeLessThanOrEqual(MAX_BYTES);

      // Every admitted connection was given back (no per-address slot leaks on broken sessions).
      const deadline = Date.now() + 5_000;
      let open = Number.NaN;
      while (Date.now() < deadline) {
        const line = (await registry.metrics()).split('\n').find((l) => l.startsWith('herald_smtp_connections_open '));
        open = Number(line?.split(' ')[1]);
        if (open === 0) break;
        await sleep(20);
      }
      expect(open).toBe(0);

      const before = received.length;
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: listener.port,
        secure: false,
        requireTLS: true,
        tls: { ca: [cert], servername: 'localhost' },
      });
      const raw = 'From: <mailer-daemon@remote.test>\r\nSubject: after the storm\r\n\r\nstill here\r\n';
      const info = await transport.sendMail({ envelope: { from: 'mailer-daemon@remote.test', to: [OWNED[0]!] }, raw });
      const accepted = info.accepted.map(String);
      transport.close();
      expect(accepted).toEqual([OWNED[0]]);
      expect(received.slice(before).some((message) => message.raw.toString() === raw && message.secure)).toBe(true);
      expect(crashes).toEqual([]);
    },
  );
});
