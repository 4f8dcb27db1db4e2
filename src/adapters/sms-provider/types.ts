// The SMS provider: hands one text to the outside world and reads back what it says about it. The
// caller (the SMS worker) owns retries, statuses and the wallet; an adapter never retries on its
// own. Outcomes are normalised here so the SMS area has no `if (provider === …)`:
// - accepted: the provider took the message; its id ties later delivery reports to it.
// - rejected: refused before hand-off (invalid number, sender not allowed, no provider credit, …);
//   the contract's `rejected` (the charge is returned). The reason is plain words, never a provider code.
// - retry: not taken (network error, 5xx, 429, credentials refused); `unconfirmed` when the request
//   had gone out and no answer came (a timeout, the batch's deadline): the provider may have it.
//
// Crash safety: no provider can be asked "did you get our message <id>?", but Twilio's Messages list
// can be read by To and From, and a message found there by its text and time is ours (`lookup`).
// Africa's Talking's fetch is for inbound messages and Termii's history is keyed by its own
// message_id: they have no lookup, and a message whose hand-off is unconfirmed is left for their
// delivery report to settle (src/sms/README.md, "Crash safety").
import type { SmsProviderName } from '../../config.ts';
import type { SmsReason } from './reasons.ts';

export interface OutgoingSms {
  /** Our SMS id (for logs and the `log` provider's outbox). */
  id: string;
  /** E.164. */
  to: string;
  /** Sender ID: up to 11 letters, digits and spaces, or an E.164 number. */
  from: string;
  text: string;
}

export type SendOutcome =
  | { kind: 'accepted'; providerMessageId: string }
  | { kind: 'rejected'; reason: SmsReason }
  | { kind: 'retry'; error: string; unconfirmed?: true };

/** A message the provider has that may be ours: its id and what it says of it (`sent` until reported further). */
export interface ProviderMessage {
  providerMessageId: string;
  status: ReportStatus;
  /** Set for failed and rejected. */
  reason?: SmsReason;
}

/** The provider's messages that match one of ours (same number, sender and text, since it was queued), oldest first. */
export type LookupOutcome = { kind: 'looked-up'; matches: ProviderMessage[] } | { kind: 'retry'; error: string };

/**
 * sent: the network has it; delivered: the handset has it; failed: handed off but not delivered (the
 * charge stands); rejected: the provider dropped it without sending (Twilio `failed`, Termii DND):
 * refund, and only from `queued` (a report that arrives after `sent` is best treated as `failed`).
 */
export type ReportStatus = 'sent' | 'delivered' | 'failed' | 'rejected';

export interface DeliveryReport {
  providerMessageId: string;
  status: ReportStatus;
  /** Set for failed and rejected. */
  reason?: SmsReason;
  /**
   * The recipient, E.164, where the report names it: it ties the report to a message left `sent`
   * without the provider's id after an unconfirmed hand-off (src/sms/README.md, "Crash safety").
   */
  to?: string;
}

/** What a callback route hands the adapter: the raw body (signatures cover its bytes). */
export interface CallbackRequest {
  /** The public URL the provider called: HERALD_PUBLIC_URL + the request's path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface SmsProvider {
  readonly kind: SmsProviderName;
  /**
   * 'reports': sent and delivered arrive later through callbacks; 'none': nothing will ever report
   * (the `log` provider), so the worker moves an accepted message to sent and then delivered itself.
   */
  readonly deliveryReports: 'reports' | 'none';
  /** `signal` gives up on the message (a `retry` naming the signal's reason) if it has not been answered. */
  send(message: OutgoingSms, signal?: AbortSignal): Promise<SendOutcome>;
  /**
   * Where the provider lets its messages be read (Twilio): the messages it has that match `message`,
   * created at `since` or later. Absent where it cannot (the worker then never guesses).
   */
  lookup?(message: OutgoingSms, since: Date, signal?: AbortSignal): Promise<LookupOutcome>;
  /** Signature (Twilio, Termii) or path token (Africa's Talking) check; false means 403/404, nothing changes. */
  verifyCallback(request: CallbackRequest): boolean;
  /** The reports in a verified callback body; statuses the contract does not track are left out. */
  parseReports(request: CallbackRequest): DeliveryReport[];
  close(): Promise<void>;
}
