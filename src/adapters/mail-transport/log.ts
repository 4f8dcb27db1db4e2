// HERALD_MAIL_TRANSPORT=log: nothing leaves the machine. Every message is handed to `record` (the
// caller keeps it in the outbox, readable with `herald admin outbox`) and every recipient is accepted.
import type { DeliveryResult, Envelope, LoggedMessage, MailTransport } from './types.ts';

export type RecordMessage = (message: LoggedMessage) => void | Promise<void>;

export function createLogTransport(record: RecordMessage): MailTransport {
  return {
    kind: 'log',
    async send(envelope: Envelope, raw: Buffer): Promise<DeliveryResult> {
      await record({ envelope: { from: envelope.from, to: [...envelope.to] }, raw });
      return {
        recipients: envelope.to.map((recipient) => ({
          recipient,
          status: 'accepted',
          response: '250 logged, not sent',
          responseCode: 250,
        })),
      };
    },
    async close() {},
  };
}
