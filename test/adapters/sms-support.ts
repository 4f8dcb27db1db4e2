// The SMS provider adapters' tests share these: a message, a receiver standing in for Herald's
// callback routes (it hands the adapter the public URL, headers and raw body), and the check that a
// refusal carries the plain reason.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  SMS_REASON_MESSAGES,
  type CallbackRequest,
  type DeliveryReport,
  type OutgoingSms,
  type SendOutcome,
  type SmsProvider,
} from '../../src/adapters/sms-provider/index.ts';

export const TIMEOUT_MS = 400;
export const message: OutgoingSms = { id: 'sms_01', to: '+2348031234567', from: 'Acme', text: 'Your code is 123456' };

/** Stands in for Herald's callback routes: verify, then parse, answering 403 or 200. */
export class CallbackReceiver {
  provider: SmsProvider | null = null;
  readonly seen: Array<{ verified: boolean; reports: DeliveryReport[] }> = [];
  readonly #server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: CallbackRequest = {
        url: `${this.url}${req.url}`,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const verified = this.provider!.verifyCallback(request);
      const reports = verified ? this.provider!.parseReports(request) : [];
      this.seen.push({ verified, reports });
      res.writeHead(verified ? 200 : 403).end();
    });
  });
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
  }
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }
  /** The reports of the last callback, or null when it failed verification. */
  last(): DeliveryReport[] | null {
    const entry = this.seen.at(-1)!;
    return entry.verified ? entry.reports : null;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** A receiver listening for the whole file. */
export function startedCallbackReceiver(): CallbackReceiver {
  const receiver = new CallbackReceiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.close());
  return receiver;
}

export function expectRejected(outcome: SendOutcome, code: string): void {
  expect(outcome).toEqual({
    kind: 'rejected',
    reason: { code, message: SMS_REASON_MESSAGES[code as keyof typeof SMS_REASON_MESSAGES] },
  });
  // Plain words: no provider code leaks into what the customer reads.
  if (outcome.kind === 'rejected') expect(outcome.reason.message).not.toMatch(/\d{3}/);
}
