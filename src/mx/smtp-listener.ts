// The inbound SMTP listener (`herald smtp`, and part of `herald start`): an MX for the addresses
// Herald owns (bounce return paths, team inboxes). smtp-server speaks the protocol; this file
// decides who may talk and which recipients are ours; receive-message.ts decides when a message
// counts as received. Limits and behaviour are summarised in README.md beside this file.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { ListenerAdmission, type AdmissionLimits } from './admission.ts';
import { receiveMessage, reply, type InboundMessage, type MessageReceiver } from './receive-message.ts';
import { smtpMetrics } from './smtp-metrics.ts';
import { smtpServerLogger } from './smtp-server-logger.ts';

export type { InboundMessage } from './receive-message.ts';

interface SmtpLimits extends AdmissionLimits {
  /** Advertised with SIZE and enforced: a larger message is answered 552 and never handed on. */
  maxMessageBytes: number;
  /** More recipients in one transaction are answered 452 (RFC 5321 asks servers to take 100). */
  maxRecipientsPerMessage: number;
  /** Mail transactions per connection; the next MAIL FROM is answered 421 and the connection closed. */
  maxMessagesPerConnection: number;
  /** SMTP commands per connection (NOOP and RSET included); past it, 421 and close. */
  maxCommandsPerConnection: number;
  /** Idle time before the server gives up on a client that has talked (the greeting wait is shorter). */
  idleTimeoutMs: number;
  /** On stop(), how long a message in progress may take before its connection is cut. */
  closeTimeoutMs: number;
}

export const defaultSmtpLimits: SmtpLimits = {
  maxMessageBytes: 10 * 1024 * 1024,
  maxRecipientsPerMessage: 100,
  maxMessagesPerConnection: 100,
  maxCommandsPerConnection: 1000,
  connectionsPerMinutePerAddress: 60,
  maxConnectionsPerAddress: 20,
  connectionsPerMinutePerNetwork: 300,
  maxConnectionsPerNetwork: 50,
  maxClients: 1000,
  // A sender's MTA speaks within milliseconds of the greeting; one that says nothing only holds a socket.
  greetingTimeoutMs: 30_000,
  // RFC 5321 4.5.3.2.7 asks a server to wait 5 minutes for the next command; the per-address and
  // per-network limits, and the eviction of the idlest at maxClients, bound who can hold one that long.
  idleTimeoutMs: 5 * 60_000,
  // Inside a mail transaction the client owes us its next step within seconds (Postfix under stress
  // allows 10 s); a client that opens one and stalls only holds a place (issue 41).
  transactionIdleMs: 10_000,
  closeTimeoutMs: 10_000,
};

export interface SmtpListenerOptions {
  port: number;
  host: string;
  /** PEM text of the certificate (chain) and its key; null: STARTTLS is not offered. */
  tls: { cert: string; key: string } | null;
  maxMessageBytes?: number;
  limits?: Partial<SmtpLimits>;
  /** Whether Herald owns `address`; false is 550 5.1.1 at RCPT, a throw is 451 (sender retries). */
  acceptsRecipient(address: string): boolean | Promise<boolean>;
  /** Takes the message over; a rejection is answered 451 4.3.0 so that the sender retries. */
  onMessage(message: InboundMessage): Promise<void>;
  logger: Logger;
  metrics?: Registry;
  /** Name in the banner and EHLO reply, e.g. config.mailDomain. */
  hostname?: string;
  /** Milliseconds since the epoch, for the per-minute limit; tests move it. */
  now?: () => number;
}

export interface SmtpListener {
  port: number;
  stop(): Promise<void>;
}

/** Reads HERALD_SMTP_TLS_CERT / _KEY (config.smtpTlsCert / smtpTlsKey, already checked at start). */
export function readSmtpTls(certFile: string | null, keyFile: string | null): { cert: string; key: string } | null {
  if (certFile === null || keyFile === null) return null;
  return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
}

// Errors that only mean the client went away or spoke badly; not worth more than debug.
const CLIENT_ERRORS = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'ERR_STREAM_DESTROYED',
  'ECONNECTION',
]);

export async function startSmtpListener(options: SmtpListenerOptions): Promise<SmtpListener> {
  const limits: SmtpLimits = { ...defaultSmtpLimits, ...options.limits };
  if (options.maxMessageBytes !== undefined) limits.maxMessageBytes = options.maxMessageBytes;
  const logger = options.logger.child({ part: 'smtp' });
  const metrics = smtpMetrics(options.metrics);
  const admission = new ListenerAdmission({
    limits,
    metrics,
    logger,
    now: options.now,
    close: (sessionId, message) => {
      for (const connection of server.connections) {
        // A 421 closes the connection (smtp-server's send()).
        if (connection.id === sessionId) connection.send(421, message);
      }
    },
  });
  /** Commands seen per session (see smtp-server-logger.ts). */
  const commands = new Map<string, number>();
  // Should smtp-server ever throw from a reply callback, it ends here, not as an unhandled rejection.
  const replyFailed = (error: unknown) => logger.error({ err: error }, 'smtp reply failed');
  const receiver: MessageReceiver = {
    admission,
    maxMessageBytes: limits.maxMessageBytes,
    metrics,
    logger,
    onMessage: options.onMessage,
    replyFailed,
  };

  const serverOptions: SMTPServerOptions = {
    name: options.hostname ?? os.hostname(),
    // An MX takes mail from anyone for its own addresses: no AUTH. Without a certificate, no
    // STARTTLS either, rather than smtp-server's bundled certificate whose key is public.
    disabledCommands: options.tls === null ? ['AUTH', 'STARTTLS'] : ['AUTH'],
    authOptional: true,
    ...(options.tls === null ? {} : { key: options.tls.key, cert: options.tls.cert }),
    size: limits.maxMessageBytes,
    rejectOversized: true,
    maxRecipients: limits.maxRecipientsPerMessage,
    // Admission (onConnect) keeps maxClients; smtp-server's own check, which counts sockets not yet
    // admitted too and would refuse instead of making room, is only a backstop against a burst of them.
    maxClients: 2 * limits.maxClients,
    socketTimeout: limits.idleTimeoutMs,
    closeTimeout: limits.closeTimeoutMs,
    hideENHANCEDSTATUSCODES: false,
    // PTR lookups cost a DNS query per connection and decide nothing here.
    disableReverseLookup: true,
    logger: smtpServerLogger(logger, (sessionId) => countCommand(sessionId)),

    onConnect(session, callback) {
      const refusal = admission.admit(session);
      callback(refusal === null ? null : reply(421, refusal));
    },

    onClose(session) {
      commands.delete(session.id);
      admission.closed(session.id);
    },

    onMailFrom(_address, session, callback) {
      if (session.transaction > limits.maxMessagesPerConnection) {
        metrics.messagesRefused.inc({ reason: 'connection_limit' });
        callback(reply(421, 'Too many messages on this connection, reconnect to send more'));
        return;
      }
      // The transaction's idle budget starts now.
      admission.progress(session.id);
      callback();
    },

    onRcptTo(address, session, callback) {
      // The client waits for the lookup; a refused recipient is no progress (admission.ts).
      admission.awaitingReply(session.id, true);
      const answer = (error?: Error) => {
        admission.awaitingReply(session.id, false);
        if (error === undefined) admission.progress(session.id);
        callback(error);
      };
      // new Promise() turns a synchronous throw of the predicate into a rejection as well.
      new Promise<boolean>((resolve) => resolve(options.acceptsRecipient(address.address)))
        .then(
          (owned) => {
            if (owned) return answer();
            metrics.recipientsRefused.inc({ reason: 'unknown' });
            answer(reply(550, 'No such mailbox here'));
          },
          (error: unknown) => {
            metrics.recipientsRefused.inc({ reason: 'lookup_failed' });
            logger.error({ err: error, sessionId: session.id }, 'smtp recipient check failed');
            answer(reply(451, 'Temporary failure checking the recipient, try again later'));
          },
        )
        .catch(replyFailed);
    },

    onData(stream, session, callback) {
      admission.progress(session.id);
      receiveMessage(receiver, stream, session, (error, message) => {
        // Our reply ends the transaction; the client's idle time starts from it.
        admission.awaitingReply(session.id, false);
        admission.progress(session.id);
        callback(error, message);
      });
    },
  };

  function countCommand(sessionId: string): void {
    admission.commandSeen(sessionId);
    const count = (commands.get(sessionId) ?? 0) + 1;
    commands.set(sessionId, count);
    if (count !== limits.maxCommandsPerConnection + 1) return;
    for (const connection of server.connections) {
      if (connection.id !== sessionId) continue;
      logger.info({ sessionId, remoteAddress: connection.remoteAddress }, 'smtp command limit reached');
      // A 421 closes the connection; the command being logged is then answered into a closed socket.
      connection.send(421, 'Too many commands on this connection');
    }
  }

  const server = new SMTPServer(serverOptions);
  // smtp-server emits 'error' for every client that resets, times out or fails a TLS handshake;
  // with no listener, Node would throw it and end the process.
  server.on('error', (error: Error & { code?: string }) => {
    if (error.code !== undefined && CLIENT_ERRORS.has(error.code)) logger.debug({ err: error }, 'smtp client error');
    else logger.warn({ err: error }, 'smtp server error');
  });
  await new Promise<void>((resolve, reject) => {
    const onListenError = (error: Error) => reject(error);
    server.server.once('error', onListenError);
    server.listen(options.port, options.host, () => {
      server.server.off('error', onListenError);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  logger.info({ host: options.host, port, starttls: options.tls !== null, limits }, 'smtp listener started');
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        // New connections are refused at once; messages in progress get closeTimeoutMs to finish.
        server.close(() => {
          logger.info({ port }, 'smtp listener stopped');
          resolve();
        });
      }),
  };
}
