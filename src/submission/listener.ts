// The submission listener: smtp-server on the STARTTLS port (HERALD_SUBMISSION_PORT) and, with a
// certificate, the implicit TLS port (HERALD_SUBMISSIONS_PORT), one set of handlers for both. This
// file speaks SMTP and keeps the session's state; auth.ts decides who may send, submit-message.ts
// turns a message into an email, smtp-replies.ts words the refusals.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { domainOf, isAddress } from '../emails/index.ts';
import { apiRateLimited } from '../platform/auth/plugin.ts';
import { CounterUnavailableError, type RateLimitDecision } from '../platform/rate-limit/index.ts';
import { authenticate, lockedOut, type SubmissionUser } from './auth.ts';
import { submissionMetrics, type SubmissionMetrics } from './metrics.ts';
import { replyOf, SmtpReply, STARTS_WITH_ENHANCED_CODE, tryLater } from './smtp-replies.ts';
import {
  defaultSubmissionLimits,
  type SubmissionLimits,
  type SubmissionListener,
  type SubmissionListenerDeps,
  type SubmissionListenerOptions,
} from './listener-options.ts';
import { submitMessage } from './submit-message.ts';

export type {
  SubmissionLimits,
  SubmissionListener,
  SubmissionListenerDeps,
  SubmissionListenerOptions,
} from './listener-options.ts';

interface Open {
  user: SubmissionUser | null;
}

/**
 * smtp-server adds an enhanced status code of its own, chosen by the reply code alone (550 is always
 * 5.1.1), to every reply a handler gives. A reply that carries its own (SmtpReply's text) is written
 * as is; smtp-server's other replies keep theirs (552 5.3.4 for size, 452 4.5.3 for recipients).
 */
function keepOwnEnhancedCodes(server: SMTPServer): void {
  type Connection = { send(code: number, data: unknown, context?: unknown): void };
  const connections = server.connections as Set<Connection>;
  const add = connections.add.bind(connections);
  connections.add = (connection: Connection) => {
    const send = connection.send.bind(connection);
    connection.send = (code, data, context) =>
      send(code, data, typeof data === 'string' && STARTS_WITH_ENHANCED_CODE.test(data) ? false : context);
    return add(connection);
  };
}

export async function startSubmissionListener(
  deps: SubmissionListenerDeps,
  options: SubmissionListenerOptions,
): Promise<SubmissionListener> {
  const limits: SubmissionLimits = { ...defaultSubmissionLimits, ...options.limits };
  const logger = deps.logger.child({ part: 'submission' });
  const metrics: SubmissionMetrics = submissionMetrics(deps.metrics);
  const plaintextFromLoopback = options.plaintextAuthFromLoopback ?? true;
  const open = new Map<string, Open>();
  const client = (session: SMTPServerSession) => deps.lockout.clientKey(session.remoteAddress);
  // Should smtp-server ever throw from a reply callback, it ends here, not as an unhandled rejection.
  const replyFailed = (error: unknown) => logger.error({ err: error }, 'submission reply failed');

  const refused = (reply: SmtpReply, session: SMTPServerSession, at: string) => {
    metrics.messagesRefused.inc({ reason: reply.reason });
    logger.info(
      { client: client(session), keyId: open.get(session.id)?.user?.username, at, reply: reply.message },
      'submission refused',
    );
    return reply;
  };

  /** The team's per-second API limit, one hit per message as per request: null within it. */
  const overRateLimit = async (user: SubmissionUser): Promise<SmtpReply | null> => {
    let decision: RateLimitDecision;
    try {
      decision = await deps.rateLimiter.apiLimit(user.principal.teamId, user.principal.apiRateLimit);
    } catch (error) {
      // As the API: shared counters unreachable do not stop sending (platform/auth/plugin.ts).
      if (error instanceof CounterUnavailableError) return null;
      throw error;
    }
    return decision.allowed ? null : new SmtpReply(421, '4.7.0', apiRateLimited(decision).message, 'rate_limited');
  };

  const handlers: Partial<SMTPServerOptions> = {
    onConnect(session, callback) {
      if (deps.lockout.isLocked(session.remoteAddress)) {
        metrics.connections.inc({ result: 'refused_locked' });
        callback(lockedOut());
        return;
      }
      open.set(session.id, { user: null });
      metrics.connections.inc({ result: 'accepted' });
      metrics.open.inc();
      callback();
    },

    onClose(session) {
      if (open.delete(session.id)) metrics.open.dec();
    },

    onAuth(auth, session, callback) {
      authenticate(
        deps,
        { username: auth.username ?? '', password: auth.password ?? '' },
        session,
        plaintextFromLoopback,
      )
        .then(
          (user) => {
            const entry = open.get(session.id);
            if (entry) entry.user = user;
            metrics.auth.inc({ result: 'success' });
            callback(null, { user: user.username });
          },
          (error: unknown) => {
            const reply = error instanceof SmtpReply ? error : null;
            metrics.auth.inc({ result: reply?.reason ?? 'failed' });
            if (reply === null) logger.error({ err: error, client: client(session) }, 'submission AUTH failed');
            else logger.info({ client: client(session), result: reply.reason }, 'submission AUTH refused');
            callback(reply ?? tryLater());
          },
        )
        .catch(replyFailed);
    },

    onMailFrom(address, session, callback) {
      const user = open.get(session.id)?.user;
      // smtp-server asks for AUTH before MAIL FROM (authOptional is off); this is a backstop.
      if (!user) return callback(new SmtpReply(530, '5.7.0', 'Authentication required', 'auth'));
      // Contract, Authentication 6: a key limited to a domain sends only from it (the From header is
      // checked again by queueEmails after DATA).
      if (
        user.keyDomain !== null &&
        address.address !== '' &&
        domainOf(address.address) !== user.keyDomain.toLowerCase()
      ) {
        const reply = new SmtpReply(
          550,
          '5.7.1',
          `This key may send only from its domain ${user.keyDomain}`,
          'from_not_allowed',
        );
        return callback(refused(reply, session, 'MAIL FROM'));
      }
      overRateLimit(user)
        .then(
          (reply) => callback(reply === null ? undefined : refused(reply, session, 'MAIL FROM')),
          (error: unknown) => {
            logger.error({ err: error, client: client(session) }, 'submission rate limit failed');
            callback(tryLater());
          },
        )
        .catch(replyFailed);
    },

    onRcptTo(address, _session, callback) {
      // The API's address rule, now rather than after the message is in.
      if (!isAddress(address.address)) return callback(new SmtpReply(553, '5.1.3', 'Bad recipient address', 'invalid'));
      callback();
    },

    onData(stream, session, callback) {
      const user = open.get(session.id)?.user;
      // Captured now: smtp-server resets the envelope once the reply is written.
      const rcptTo = session.envelope.rcptTo.map((recipient) => recipient.address);
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Past the limit the rest is read and dropped: smtp-server answers 552 5.3.4 itself.
        if (bytes <= limits.maxMessageBytes) chunks.push(chunk);
      });
      stream.on('error', (error) =>
        logger.debug({ err: error, client: client(session) }, 'submission message stream ended early'),
      );
      stream.on('end', () => {
        metrics.bytes.inc(bytes);
        if (stream.sizeExceeded || bytes > limits.maxMessageBytes) {
          metrics.messagesRefused.inc({ reason: 'size' });
          return callback(
            new SmtpReply(552, '5.3.4', `Message exceeds the maximum size of ${limits.maxMessageBytes} bytes`, 'size'),
          );
        }
        if (!user) return callback(new SmtpReply(530, '5.7.0', 'Authentication required', 'auth'));
        submitMessage(deps, user, { rcptTo, raw: Buffer.concat(chunks, bytes) })
          .then(
            ({ emailId, replayed }) => {
              metrics.messagesAccepted.inc({ result: replayed ? 'replayed' : 'stored' });
              logger.debug(
                { client: client(session), keyId: user.username, emailId, replayed, bytes },
                'submission accepted',
              );
              callback(
                null,
                replayed ? `Already queued as ${emailId ?? 'before'} (Idempotency-Key)` : `Queued as ${emailId}`,
              );
            },
            (error: unknown) => {
              const reply = replyOf(error);
              if (reply === null) {
                metrics.messagesRefused.inc({ reason: 'failed' });
                logger.error(
                  { err: error, client: client(session), keyId: user.username },
                  'submission could not store the message',
                );
                return callback(tryLater());
              }
              callback(refused(reply, session, 'DATA'));
            },
          )
          .catch(replyFailed);
      });
    },
  };

  const common: SMTPServerOptions = {
    ...handlers,
    name: options.hostname,
    banner: 'Herald submission',
    // smtp-server's own log lines name client addresses: ours name a keyed hash of them instead.
    logger: false,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    // Decided per session by auth.ts (TLS, or loopback), not by smtp-server's all-or-nothing switch.
    allowInsecureAuth: true,
    size: limits.maxMessageBytes,
    rejectOversized: true,
    maxRecipients: limits.maxRecipients,
    maxClients: limits.maxClients,
    socketTimeout: limits.idleTimeoutMs,
    closeTimeout: limits.closeTimeoutMs,
    hideENHANCEDSTATUSCODES: false,
    hideDSN: true,
    disableReverseLookup: true,
    ...(options.tls === null ? {} : { key: options.tls.key, cert: options.tls.cert, minVersion: 'TLSv1.2' as const }),
  };
  const servers: { server: SMTPServer; port: number }[] = [];
  const listen = async (port: number, secure: boolean) => {
    const server = new SMTPServer({
      ...common,
      secure,
      // Without a certificate no STARTTLS, rather than smtp-server's bundled one whose key is public.
      disabledCommands: options.tls === null ? ['STARTTLS'] : secure ? ['STARTTLS'] : [],
    });
    keepOwnEnhancedCodes(server);
    // smtp-server emits 'error' for every client that resets or fails a TLS handshake.
    server.on('error', (error: Error) => logger.debug({ err: error }, 'submission client error'));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, options.host, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    const bound = (server.server.address() as AddressInfo).port;
    servers.push({ server, port: bound });
    return bound;
  };
  const stop = () =>
    Promise.all(servers.map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve())))).then(
      () => {},
    );
  try {
    const port = options.port === null ? null : await listen(options.port, false);
    const tlsPort = options.tlsPort === null || options.tls === null ? null : await listen(options.tlsPort, true);
    logger.info(
      { host: options.host, port, tlsPort, starttls: options.tls !== null, limits },
      'submission listener started',
    );
    return {
      port,
      tlsPort,
      async stop() {
        await stop();
        logger.info({ port, tlsPort }, 'submission listener stopped');
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
