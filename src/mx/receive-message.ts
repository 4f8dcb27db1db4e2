// One message's DATA: read it within the size limit, refuse what cannot be read later, and answer
// 250 only once onMessage resolved, so a message is either handed on or still the sender's to retry.
import type { Logger } from 'pino';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { ListenerAdmission } from './admission.ts';
import { messageShapeProblem } from '../platform/mime-limits.ts';
import type { SmtpMetrics } from './smtp-metrics.ts';

export interface InboundMessage {
  /** The envelope sender; '' for the null sender (<>) that bounces and reports use. */
  mailFrom: string;
  /** The accepted recipients only (each one acceptsRecipient said yes to). */
  rcptTo: string[];
  remoteAddress: string;
  /** The message exactly as received: after SMTP dot-unstuffing, nothing else changed. */
  raw: Buffer;
  /** The session was upgraded with STARTTLS. */
  secure: boolean;
}

/** What receiving a message needs from its listener. */
export interface MessageReceiver {
  admission: ListenerAdmission;
  maxMessageBytes: number;
  metrics: SmtpMetrics;
  logger: Logger;
  onMessage(message: InboundMessage): Promise<void>;
  replyFailed(error: unknown): void;
}

/** An error whose code smtp-server writes as the reply (the enhanced code follows from it). */
export function reply(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

export function receiveMessage(
  receiver: MessageReceiver,
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  callback: (error?: Error | null, message?: string) => void,
): void {
  const { admission, maxMessageBytes, metrics, logger } = receiver;
  // Captured now: smtp-server resets the envelope once the reply is written.
  const mailFrom = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
  const rcptTo = session.envelope.rcptTo.map((recipient) => recipient.address);
  const chunks: Buffer[] = [];
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    admission.dataReceived(session.id, chunk.length);
    // Past the limit the rest is read and dropped, never held: the answer will be 552 anyway.
    if (bytes <= maxMessageBytes) chunks.push(chunk);
  });
  // The client left mid-DATA: smtp-server destroys the stream without 'end', so nothing is handed on.
  stream.on('error', (error) => logger.debug({ err: error, sessionId: session.id }, 'smtp message stream ended early'));
  stream.on('end', () => {
    // The whole message is in: from here the client waits for our reply.
    admission.awaitingReply(session.id, true);
    metrics.bytes.inc(bytes);
    if (stream.sizeExceeded || bytes > maxMessageBytes) {
      metrics.messagesRefused.inc({ reason: 'size' });
      callback(reply(552, `Message exceeds the maximum size of ${maxMessageBytes} bytes`));
      return;
    }
    const raw = Buffer.concat(chunks, bytes);
    // Refused now rather than answered 250 and then unreadable (platform/mime-limits.ts): the sender still holds it.
    const problem = messageShapeProblem(raw);
    if (problem !== null) {
      metrics.messagesRefused.inc({ reason: problem.reason });
      callback(reply(554, problem.message));
      return;
    }
    const message: InboundMessage = {
      mailFrom,
      rcptTo,
      remoteAddress: session.remoteAddress,
      raw,
      secure: session.secure,
    };
    new Promise<void>((resolve) => resolve(receiver.onMessage(message)))
      .then(
        () => {
          metrics.messagesAccepted.inc();
          callback(null, 'Message accepted');
        },
        (error: unknown) => {
          metrics.messagesRefused.inc({ reason: 'handler_failed' });
          logger.error({ err: error, sessionId: session.id, mailFrom, rcptTo }, 'smtp message could not be taken over');
          callback(reply(451, 'Temporary failure, try again later'));
        },
      )
      .catch(receiver.replyFailed);
  });
}
