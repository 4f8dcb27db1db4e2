// The SMTP sink's smtp-server side (test/support/smtp-sink.ts): its options, one server per address
// with the handlers for connect, RCPT TO, DATA and close, and listening on an address.
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import {
  refusal,
  SmtpReplyError,
  type SinkBehaviour,
  type SinkBehaviours,
  type SinkRule,
  type SinkStage,
} from './smtp-sink-behaviour.ts';
import type { SinkAcceptance } from './smtp-sink-held.ts';
import type { ConnectionLog } from './smtp-sink-log.ts';

export interface SmtpSinkOptions {
  starttls?: boolean;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** Bind addresses, all on one port (loopback: 127.0.0.x); default [host]. */
  hosts?: string[];
  /** The behaviour of every address from the start (reset() comes back to it). */
  behaviour?: SinkBehaviour;
  /** The key and certificate (PEM) STARTTLS presents; default: smtp-server's bundled self-signed pair. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

/** The sink's state the handlers work on, its rules and its answer to a message received in full. */
export interface SinkParts {
  log: ConnectionLog;
  behaviours: SinkBehaviours;
  acceptance: SinkAcceptance;
  ruleFor(recipient: string, stage: SinkStage): SinkRule | undefined;
  onMessage(session: SMTPServerSession, raw: Buffer, callback: (error?: Error | null) => void): void;
}

/** A server with the sink's handlers; each call builds its own options object. */
export function createSinkServer(options: SmtpSinkOptions, sink: SinkParts): SMTPServer {
  const server = new SMTPServer(serverOptions(options, sink));
  // Client resets and timeouts are the tests' business, not the sink's (listen() still sees its own).
  server.on('error', () => {});
  sink.log.listenForQuit(server);
  return server;
}

function serverOptions(options: SmtpSinkOptions, sink: SinkParts): SMTPServerOptions {
  return {
    logger: false,
    disableReverseLookup: true,
    hideSTARTTLS: options.starttls === false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    authOptional: true,
    allowInsecureAuth: true,
    onConnect: (session, callback) => onConnect(sink, session, callback),
    onClose: (session) => {
      sink.behaviours.closed(session.id);
      sink.log.closed(session);
      sink.acceptance.closed(session.id);
    },
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onRcptTo: (address, _session, callback) => {
      callback(refusal(sink.ruleFor(address.address, 'rcpt')));
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (sink.behaviours.of(session.localAddress).stall === 'data') {
          sink.behaviours.stall(session.id, {
            kind: 'data',
            localAddress: session.localAddress,
            go: () => sink.onMessage(session, raw, callback),
            refuse: (error) => callback(error),
          });
          return;
        }
        sink.onMessage(session, raw, callback);
      });
    },
  };
}

function onConnect(sink: SinkParts, session: SMTPServerSession, callback: (error?: Error | null) => void): void {
  sink.acceptance.opened(session.id);
  const address = session.localAddress;
  const behaviour = sink.behaviours.of(address);
  const refused = behaviour.maxConnections !== undefined && sink.log.acceptedOn(address) >= behaviour.maxConnections;
  sink.log.opened(session, refused);
  // smtp-server answers an onConnect error with its responseCode and closes the connection.
  if (refused) return callback(new SmtpReplyError(421, '4.7.0 Too many connections'));
  if (behaviour.stall === 'greeting') {
    sink.behaviours.stall(session.id, {
      kind: 'greeting',
      localAddress: address,
      go: () => callback(),
      refuse: (error) => callback(error),
    });
    return;
  }
  callback();
}

export function listen(server: SMTPServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}
