// A fake Twilio Messaging API on loopback, speaking the real formats: POST
// /2010-04-01/Accounts/{Sid}/Messages.json with Basic auth Sid:AuthToken and a form body (To, From,
// Body, StatusCallback); 201 with the message resource, 400 `{code, message}` refusals, 401 `20003`
// for wrong credentials. It posts status callbacks as Twilio does: form fields signed with
// X-Twilio-Signature (base64 HMAC-SHA1 of URL + sorted names and values, keyed with the auth token).
//
//   const twilio = await FakeTwilio.start();            // HERALD_TWILIO_API_URL = twilio.url
//   twilio.enqueue({ refuse: 21211 }, { status: 503 }, 'hang');   // next three answers; then 'accept'
//   twilio.messages                                      // accepted messages: {sid, to, from, body, statusCallback}
//   await twilio.postStatus(url, { sid, status: 'delivered' });   // or { ..., forge: true }
import { createHmac, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { FakeProviderServer, postReport, type Answer, type RecordedRequest } from './fake-provider-server.ts';

export const TWILIO_TEST_SID = 'AC00000000000000000000000000000001';
export const TWILIO_TEST_TOKEN = 'twilio-test-auth-token';

/** accept; refuse with a Twilio error code (HTTP 400); answer an HTTP status; never answer. */
export type TwilioBehaviour = 'accept' | { refuse: number } | { status: number } | 'hang';

export interface TwilioMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string | null;
}

export interface TwilioStatus {
  sid: string;
  /** queued, sending, sent, delivered, undelivered, failed, … */
  status: string;
  errorCode?: number;
  /** Sign with a wrong key. */
  forge?: boolean;
}

export class FakeTwilio extends FakeProviderServer<TwilioBehaviour> {
  readonly accountSid: string;
  readonly authToken: string;
  /** Messages the fake accepted, oldest first. */
  readonly messages: TwilioMessage[] = [];

  private constructor(server: Server, sid: string, token: string) {
    super(server, 'accept');
    this.accountSid = sid;
    this.authToken = token;
  }

  static async start(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
    const server = await FakeProviderServer.listen();
    return new FakeTwilio(server, options.accountSid ?? TWILIO_TEST_SID, options.authToken ?? TWILIO_TEST_TOKEN);
  }

  /** Posts a status callback for a message to `url` (Herald's StatusCallback); answers Herald's reply. */
  postStatus(url: string, report: TwilioStatus): Promise<{ status: number; body: string }> {
    const message = this.messages.find((m) => m.sid === report.sid);
    const fields = new URLSearchParams({
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      From: message?.from ?? 'Herald',
      MessageSid: report.sid,
      MessageStatus: report.status,
      SmsSid: report.sid,
      SmsStatus: report.status,
      To: message?.to ?? '+15005550006',
    });
    if (report.errorCode !== undefined) fields.set('ErrorCode', String(report.errorCode));
    const key = report.forge ? 'not-the-auth-token' : this.authToken;
    const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const signature = createHmac('sha1', key)
      .update(url + sorted.map(([k, v]) => k + v).join(''))
      .digest('base64');
    return postReport(
      url,
      { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      fields.toString(),
    );
  }

  protected answer(request: RecordedRequest, behaviour: TwilioBehaviour): Answer | null {
    const path = `/2010-04-01/Accounts/${this.accountSid}/Messages.json`;
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (request.method !== 'POST' || request.path !== path) {
      return {
        status: 404,
        body: JSON.stringify({ code: 20404, message: 'The requested resource was not found', status: 404 }),
      };
    }
    if (request.headers.authorization !== expected) {
      return { status: 401, body: JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }) };
    }
    if (behaviour === 'hang') return null;
    if (typeof behaviour === 'object' && 'status' in behaviour) {
      return {
        status: behaviour.status,
        body: JSON.stringify({ code: 20500, message: 'Internal Server Error', status: behaviour.status }),
      };
    }
    if (typeof behaviour === 'object' && 'refuse' in behaviour) {
      const body = {
        code: behaviour.refuse,
        message: `Twilio refusal ${behaviour.refuse}`,
        more_info: `https://www.twilio.com/docs/errors/${behaviour.refuse}`,
        status: 400,
      };
      return { status: 400, body: JSON.stringify(body) };
    }
    const form = new URLSearchParams(request.body);
    const message: TwilioMessage = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      to: form.get('To') ?? '',
      from: form.get('From') ?? '',
      body: form.get('Body') ?? '',
      statusCallback: form.get('StatusCallback'),
    };
    this.messages.push(message);
    const resource = {
      sid: message.sid,
      account_sid: this.accountSid,
      to: message.to,
      from: message.from,
      body: message.body,
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      error_code: null,
      error_message: null,
      uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${message.sid}.json`,
    };
    return { status: 201, body: JSON.stringify(resource) };
  }
}
