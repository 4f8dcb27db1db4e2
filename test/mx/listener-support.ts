// Shared by the SMTP listener's tests: a listener started per test and stopped after it, its metrics
// read back from the registry, and a self-signed certificate for STARTTLS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Registry } from 'prom-client';
import { afterEach } from 'vitest';
import {
  startSmtpListener,
  type InboundMessage,
  type SmtpListener,
  type SmtpListenerOptions,
} from '../../src/mx/smtp-listener.ts';

export const OWNED = 'bounce+abc.0123456789abcdef@bounces.test';
export const OWNED_TOO = 'bounce+def.0123456789abcdef@bounces.test';
const silent = pino({ level: 'silent' });

export interface ListenerBed {
  /** What the listener handed on in the current test. */
  readonly received: InboundMessage[];
  /** Starts the test's listener on a free loopback port; it owns OWNED and OWNED_TOO. */
  start(overrides?: Partial<SmtpListenerOptions>): Promise<SmtpListener>;
  /** For a test that stopped the listener itself: nothing is left to stop after it. */
  forget(): void;
}

/** Registers, in the calling file, the stop after each test (vitest runs files with isolate: false). */
export function listenerTestBed(): ListenerBed {
  let listener: SmtpListener | null = null;
  const received: InboundMessage[] = [];
  afterEach(async () => {
    await listener?.stop();
    listener = null;
    received.length = 0;
  });
  return {
    received,
    async start(overrides = {}) {
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
    },
    forget() {
      listener = null;
    },
  };
}

export async function metric(registry: Registry, name: string, labels = ''): Promise<number> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

/** Connections are given back a moment after the socket closes (smtp-server's onClose). */
export async function waitForOpenConnections(registry: Registry, expected: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((await metric(registry, 'herald_smtp_connections_open')) !== expected) {
    if (Date.now() > deadline) throw new Error(`open connections did not reach ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A fresh EC certificate for localhost and 127.0.0.1, made by openssl; its temporary files are removed. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-smtp-tls-'));
  try {
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
    return {
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
