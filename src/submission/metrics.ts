// SMTP submission's Prometheus metrics (names and labels in README.md beside this file).
import { Counter, Gauge, type Registry } from 'prom-client';

export interface SubmissionMetrics {
  connections: Counter<'result'>;
  open: Gauge;
  auth: Counter<'result'>;
  messagesAccepted: Counter<'result'>;
  messagesRefused: Counter<'reason'>;
  bytes: Counter;
}

/** Looked up before being created: tests (or a second listener in one process) share one registry. */
export function submissionMetrics(registry: Registry | undefined): SubmissionMetrics {
  const registers = registry === undefined ? [] : [registry];
  const existing = <T>(name: string): T | undefined => registry?.getSingleMetric(name) as T | undefined;
  return {
    connections:
      existing<Counter<'result'>>('herald_submission_connections_total') ??
      new Counter({
        name: 'herald_submission_connections_total',
        help: 'SMTP submission connections, by result (accepted; refused_locked: the address is locked out after failed AUTH)',
        labelNames: ['result'],
        registers,
      }),
    open:
      existing<Gauge>('herald_submission_connections_open') ??
      new Gauge({ name: 'herald_submission_connections_open', help: 'SMTP submission connections open', registers }),
    auth:
      existing<Counter<'result'>>('herald_submission_auth_total') ??
      new Counter({
        name: 'herald_submission_auth_total',
        help:
          'AUTH attempts, by result (success; invalid: wrong user or key; wrong_kind: a key that cannot send; ' +
          'plaintext: before TLS; locked: the address is locked out)',
        labelNames: ['result'],
        registers,
      }),
    messagesAccepted:
      existing<Counter<'result'>>('herald_submission_messages_accepted_total') ??
      new Counter({
        name: 'herald_submission_messages_accepted_total',
        help: 'Messages answered 250, by result (stored: a new email; replayed: an Idempotency-Key seen before)',
        labelNames: ['result'],
        registers,
      }),
    messagesRefused:
      existing<Counter<'reason'>>('herald_submission_messages_refused_total') ??
      new Counter({
        name: 'herald_submission_messages_refused_total',
        help:
          'Messages refused, by reason (from_not_allowed, too_many_recipients, send_limit, rate_limited, size, ' +
          'unreadable, invalid, idempotency_in_flight, idempotency_reused, failed)',
        labelNames: ['reason'],
        registers,
      }),
    bytes:
      existing<Counter>('herald_submission_received_bytes_total') ??
      new Counter({
        name: 'herald_submission_received_bytes_total',
        help: 'Message bytes received in DATA, accepted or not',
        registers,
      }),
  };
}
