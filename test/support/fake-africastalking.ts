// A fake Africa's Talking SMS API on loopback, speaking the real formats: POST /version1/messaging
// with the `apiKey` header and a form body (username, to, message, from); 201 with
// SMSMessageData.Recipients[{statusCode, number, status, cost, messageId}], 401 plain text for a wrong
// key. Reports go out as AT sends them: an unsigned form POST (id, status, phoneNumber, networkCode,
// failureReason) to the URL pasted in its dashboard, which is where Herald's token lives.
//
//   const at = await FakeAfricasTalking.start();      // HERALD_AT_API_URL = at.url
//   at.enqueue({ refuse: 403 }, { status: 500 }, 'hang');   // per-recipient code 403, HTTP 500, no answer
//   at.messages                                        // accepted: {messageId, to, from, message, username}
//   await at.postReport(`${base}/hooks/sms/africastalking/${token}`, { id, status: 'Success' });
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { FakeProviderServer, postReport, type Answer, type RecordedRequest } from './fake-provider-server.ts';

export const AT_TEST_USERNAME = 'sandbox';
export const AT_TEST_API_KEY = 'atsk_test_api_key';

/** Names AT gives its per-recipient status codes. */
const STATUS_NAMES: Record<number, string> = {
  100: 'Processed',
  101: 'Success',
  102: 'Queued',
  401: 'RiskHold',
  402: 'InvalidSenderId',
  403: 'InvalidPhoneNumber',
  404: 'UnsupportedNumberType',
  405: 'InsufficientBalance',
  406: 'UserInBlacklist',
  407: 'CouldNotRoute',
  409: 'DoNotDisturbRejection',
  500: 'InternalServerError',
  501: 'GatewayError',
  502: 'RejectedByGateway',
};

/** accept (101 Success); a per-recipient refusal code; an HTTP status; never answer. */
export type AfricasTalkingBehaviour = 'accept' | { refuse: number } | { status: number } | 'hang';

export interface AfricasTalkingMessage {
  messageId: string;
  username: string;
  to: string;
  from: string;
  message: string;
}

export interface AfricasTalkingReport {
  id: string;
  /** Sent, Submitted, Buffered, Success, Rejected, Failed, AbsentSubscriber, Expired. */
  status: string;
  failureReason?: string;
  phoneNumber?: string;
}

export class FakeAfricasTalking extends FakeProviderServer<AfricasTalkingBehaviour> {
  readonly username: string;
  readonly apiKey: string;
  readonly messages: AfricasTalkingMessage[] = [];

  private constructor(server: Server, username: string, apiKey: string) {
    super(server, 'accept');
    this.username = username;
    this.apiKey = apiKey;
  }

  static async start(options: { username?: string; apiKey?: string } = {}): Promise<FakeAfricasTalking> {
    const server = await FakeProviderServer.listen();
    return new FakeAfricasTalking(server, options.username ?? AT_TEST_USERNAME, options.apiKey ?? AT_TEST_API_KEY);
  }

  /** Posts a delivery report to `url` as AT does (a wrong token in the URL is how a test forges one). */
  postReport(url: string, report: AfricasTalkingReport): Promise<{ status: number; body: string }> {
    const message = this.messages.find((m) => m.messageId === report.id);
    const fields = new URLSearchParams({
      id: report.id,
      status: report.status,
      phoneNumber: report.phoneNumber ?? message?.to ?? '+254711000000',
      networkCode: '63902',
      retryCount: '0',
    });
    if (report.failureReason !== undefined) fields.set('failureReason', report.failureReason);
    return postReport(url, { 'content-type': 'application/x-www-form-urlencoded' }, fields.toString());
  }

  protected answer(request: RecordedRequest, behaviour: AfricasTalkingBehaviour): Answer | null {
    if (request.method !== 'POST' || request.path !== '/version1/messaging') {
      return { status: 404, body: 'Not Found', contentType: 'text/plain' };
    }
    const form = new URLSearchParams(request.body);
    if (request.headers.apikey !== this.apiKey || form.get('username') !== this.username) {
      return { status: 401, body: 'The supplied authentication is invalid', contentType: 'text/plain' };
    }
    if (behaviour === 'hang') return null;
    if (typeof behaviour === 'object' && 'status' in behaviour) {
      return { status: behaviour.status, body: 'Internal Server Error', contentType: 'text/plain' };
    }
    const to = form.get('to') ?? '';
    const code = typeof behaviour === 'object' ? behaviour.refuse : 101;
    const taken = code >= 100 && code <= 102;
    const messageId = taken ? `ATXid_${randomBytes(16).toString('hex')}` : 'None';
    if (taken) {
      this.messages.push({
        messageId,
        username: this.username,
        to,
        from: form.get('from') ?? '',
        message: form.get('message') ?? '',
      });
    }
    const recipient = {
      statusCode: code,
      number: to,
      status: STATUS_NAMES[code] ?? 'Unknown',
      cost: taken ? 'KES 0.8000' : '0',
      messageId,
    };
    const summary = taken ? 'Sent to 1/1 Total Cost: KES 0.8000' : 'Sent to 0/1 Total Cost: 0';
    return { status: 201, body: JSON.stringify({ SMSMessageData: { Message: summary, Recipients: [recipient] } }) };
  }
}
