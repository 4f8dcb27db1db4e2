// A fake Termii messaging API on loopback, speaking the real formats: POST /api/sms/send with a JSON
// body {api_key, to, from, sms, type, channel}; 200 `{code: "ok", message_id, message, balance,
// user}` when taken, otherwise an answer without `code: "ok"` (Termii explains refusals in words).
// Delivery reports go out as JSON signed with X-Termii-Signature: hex HMAC-SHA512 of the body with
// the account's secret key.
//
//   const termii = await FakeTermii.start();           // HERALD_TERMII_API_URL = termii.url
//   termii.enqueue({ refuse: 'ApplicationSenderId not found' }, { status: 503 }, 'hang');
//   termii.messages                                    // accepted: {messageId, to, from, sms, channel}
//   await termii.postReport(url, { messageId, status: 'DELIVERED' });   // or { ..., forge: true }
import type { Server } from 'node:http';
import { createHmac, randomInt } from 'node:crypto';
import { FakeProviderServer, postReport, type Answer, type RecordedRequest } from './fake-provider-server.ts';

export const TERMII_TEST_API_KEY = 'TLtestapikey';
export const TERMII_TEST_SECRET_KEY = 'termii-test-secret-key';

/**
 * accept; refuse in Termii's words (HTTP 400 by default, or 200 without `code: "ok"`); an HTTP
 * status; never answer.
 */
export type TermiiBehaviour = 'accept' | { refuse: string; httpStatus?: number } | { status: number } | 'hang';

export interface TermiiMessage {
  messageId: string;
  to: string;
  from: string;
  sms: string;
  channel: string;
}

export interface TermiiReport {
  messageId: string;
  /** DELIVERED, Message Sent, DND Active on Phone Number, Message Failed, Rejected, Expired. */
  status: string;
  forge?: boolean;
  /** The number as Termii writes it (no "+"); the message's own when the fake has it. */
  receiver?: string;
}

export class FakeTermii extends FakeProviderServer<TermiiBehaviour> {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly messages: TermiiMessage[] = [];

  private constructor(server: Server, apiKey: string, secretKey: string) {
    super(server, 'accept');
    this.apiKey = apiKey;
    this.secretKey = secretKey;
  }

  static async start(options: { apiKey?: string; secretKey?: string } = {}): Promise<FakeTermii> {
    const server = await FakeProviderServer.listen();
    return new FakeTermii(server, options.apiKey ?? TERMII_TEST_API_KEY, options.secretKey ?? TERMII_TEST_SECRET_KEY);
  }

  /** Posts a signed delivery report to `url` (Herald's /hooks/sms/termii). */
  postReport(url: string, report: TermiiReport): Promise<{ status: number; body: string }> {
    const message = this.messages.find((m) => m.messageId === report.messageId);
    const body = JSON.stringify({
      type: 'sms',
      id: `${report.messageId}-dlr`,
      message_id: report.messageId,
      receiver: report.receiver ?? message?.to ?? '2348030000000',
      sender: message?.from ?? 'Herald',
      message: message?.sms ?? '',
      sent_at: new Date().toISOString(),
      cost: '4.00',
      status: report.status,
      channel: 'Generic',
    });
    const key = report.forge ? 'not-the-secret-key' : this.secretKey;
    const signature = createHmac('sha512', key).update(body).digest('hex');
    return postReport(url, { 'content-type': 'application/json', 'x-termii-signature': signature }, body);
  }

  protected answer(request: RecordedRequest, behaviour: TermiiBehaviour): Answer | null {
    if (request.method !== 'POST' || request.path !== '/api/sms/send') {
      return { status: 404, body: JSON.stringify({ message: 'Not Found' }) };
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return { status: 400, body: JSON.stringify({ message: 'Invalid JSON' }) };
    }
    if (payload.api_key !== this.apiKey) return { status: 401, body: JSON.stringify({ message: 'Unauthorized' }) };
    if (behaviour === 'hang') return null;
    if (typeof behaviour === 'object' && 'status' in behaviour) {
      return { status: behaviour.status, body: JSON.stringify({ message: 'Server Error' }) };
    }
    if (typeof behaviour === 'object') {
      return {
        status: behaviour.httpStatus ?? 400,
        body: JSON.stringify({ code: 'error', message: behaviour.refuse }),
      };
    }
    const message: TermiiMessage = {
      messageId: String(randomInt(1e9, 9e9)) + String(randomInt(1e9, 9e9)),
      to: String(payload.to ?? ''),
      from: String(payload.from ?? ''),
      sms: String(payload.sms ?? ''),
      channel: String(payload.channel ?? ''),
    };
    this.messages.push(message);
    return {
      status: 200,
      body: JSON.stringify({
        code: 'ok',
        message_id: message.messageId,
        message: 'Successfully Sent',
        balance: 9,
        user: 'Herald Test',
      }),
    };
  }
}
