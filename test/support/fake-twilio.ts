// A fake Twilio Messaging API on loopback, speaking the real formats: POST
// /2010-04-01/Accounts/{Sid}/Messages.json with Basic auth Sid:AuthToken and a form body (To, From,
// Body, StatusCallback); 201 with the message resource, 400 `{code, message}` refusals, 401 `20003`
// for wrong credentials. It posts status callbacks as Twilio does: form fields signed with
// X-Twilio-Signature (base64 HMAC-SHA1 of URL + sorted names and values, keyed with the auth token).
// GET of the same path is the Messages list (newest first, filters To, From, DateSent, DateSent<=,
// DateSent>=, PageSize), over the messages it accepted, in Twilio's JSON.
//
//   const twilio = await FakeTwilio.start();            // HERALD_TWILIO_API_URL = twilio.url
//   twilio.enqueue({ refuse: 21211 }, { status: 503 }, 'hang');   // next three answers; then 'accept'
//   twilio.enqueue('accept-silently', 'accept-held');   // taken but never answered; answered at releaseHeld()
//   twilio.messages                                      // accepted messages: {sid, to, from, body, statusCallback}
//   await twilio.postStatus(url, { sid, status: 'delivered' });   // or { ..., forge: true }
import { createHmac, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { FakeProviderServer, postReport, type Answer, type RecordedRequest } from './fake-provider-server.ts';

export const TWILIO_TEST_SID = 'AC00000000000000000000000000000001';
export const TWILIO_TEST_TOKEN = 'twilio-test-auth-token';

/**
 * accept; refuse with a Twilio error code (HTTP 400); answer an HTTP status; never answer (nothing
 * taken); take the message but never answer ('accept-silently': the answer lost, as a killed worker
 * or a deadline loses it); take it and answer when the test calls releaseHeld().
 */
export type TwilioBehaviour =
  'accept' | { refuse: number } | { status: number } | 'hang' | 'accept-silently' | 'accept-held';

export interface TwilioMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string | null;
  /** Twilio's status as its list shows it: queued, then as postStatus reports. */
  status: string;
  errorCode: number | null;
  createdAt: Date;
  /** Set once Twilio has sent it (status sent or later): what DateSent filters on. */
  sentAt: Date | null;
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
  /** Twilio's clock (date_created, date_sent); a test with a moved clock gives its own. */
  now: () => Date = () => new Date();
  readonly #held: (() => void)[] = [];

  private constructor(server: Server, sid: string, token: string) {
    super(server, 'accept');
    this.accountSid = sid;
    this.authToken = token;
  }

  static async start(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
    const server = await FakeProviderServer.listen();
    return new FakeTwilio(server, options.accountSid ?? TWILIO_TEST_SID, options.authToken ?? TWILIO_TEST_TOKEN);
  }

  /** Answers every request held by 'accept-held', now. */
  releaseHeld(): void {
    for (const release of this.#held.splice(0)) release();
  }

  /** The POSTs to the Messages resource: one per hand-off Herald attempted. */
  get sendRequests(): number {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Messages.json')).length;
  }

  /** Posts a status callback for a message to `url` (Herald's StatusCallback); answers Herald's reply. */
  postStatus(url: string, report: TwilioStatus): Promise<{ status: number; body: string }> {
    const message = this.messages.find((m) => m.sid === report.sid);
    if (message !== undefined) {
      message.status = report.status;
      message.errorCode = report.errorCode ?? null;
      if (report.status !== 'queued' && report.status !== 'failed') message.sentAt ??= this.now();
    }
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

  protected answer(request: RecordedRequest, behaviour: TwilioBehaviour): Answer | null | Promise<Answer> {
    const path = `/2010-04-01/Accounts/${this.accountSid}/Messages.json`;
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    const [requestPath, query = ''] = request.path.split('?', 2) as [string, string?];
    if (request.method === 'GET' && requestPath === path) {
      if (request.headers.authorization !== expected)
        return { status: 401, body: JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }) };
      return { status: 200, body: JSON.stringify(this.#list(new URLSearchParams(query))) };
    }
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
      status: 'queued',
      errorCode: null,
      createdAt: this.now(),
      sentAt: null,
    };
    this.messages.push(message);
    const answer: Answer = { status: 201, body: JSON.stringify(this.#resource(message)) };
    if (behaviour === 'accept-silently') return null;
    if (behaviour === 'accept-held') return new Promise<Answer>((resolve) => this.#held.push(() => resolve(answer)));
    return answer;
  }

  /** A message resource as Twilio's API shows it. */
  #resource(message: TwilioMessage) {
    return {
      account_sid: this.accountSid,
      api_version: '2010-04-01',
      body: message.body,
      date_created: rfc2822(message.createdAt),
      date_sent: message.sentAt === null ? null : rfc2822(message.sentAt),
      date_updated: rfc2822(message.sentAt ?? message.createdAt),
      direction: 'outbound-api',
      error_code: message.errorCode,
      error_message: null,
      from: message.from,
      messaging_service_sid: null,
      num_media: '0',
      num_segments: '1',
      price: null,
      price_unit: 'USD',
      sid: message.sid,
      status: message.status,
      subresource_uris: { media: `/2010-04-01/Accounts/${this.accountSid}/Messages/${message.sid}/Media.json` },
      to: message.to,
      uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${message.sid}.json`,
    };
  }

  /** The Messages list: newest first, one page (Page 0) of PageSize (50 unless given, at most 1000). */
  #list(query: URLSearchParams) {
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const to = query.get('To');
    const from = query.get('From');
    const on = query.get('DateSent');
    const after = query.get('DateSent>');
    const before = query.get('DateSent<');
    const pageSize = Math.min(1000, Number(query.get('PageSize') ?? 50));
    const matches = this.messages
      .filter((m) => (to === null || m.to === to) && (from === null || m.from === from))
      // DateSent filters on date_sent: a message not yet sent has none and is left out.
      .filter((m) => (on ?? after ?? before) === null || m.sentAt !== null)
      .filter((m) => on === null || day(m.sentAt!) === on)
      .filter((m) => after === null || day(m.sentAt!) >= after)
      .filter((m) => before === null || day(m.sentAt!) <= before)
      .reverse();
    const uri = `/2010-04-01/Accounts/${this.accountSid}/Messages.json?${query}`;
    return {
      end: Math.max(0, Math.min(matches.length, pageSize) - 1),
      first_page_uri: uri,
      messages: matches.slice(0, pageSize).map((m) => this.#resource(m)),
      next_page_uri: null,
      page: 0,
      page_size: pageSize,
      previous_page_uri: null,
      start: 0,
      uri,
    };
  }
}

/** Twilio's date format: "Sun, 29 Nov 2026 05:34:54 +0000". */
function rfc2822(at: Date): string {
  return at.toUTCString().replace('GMT', '+0000');
}
