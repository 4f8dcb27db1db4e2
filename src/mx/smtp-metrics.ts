// The inbound SMTP listener's Prometheus metrics (names and labels in README.md beside this file).
import { Counter, Gauge, type Registry } from 'prom-client';

export interface SmtpMetrics {
  connections: Counter<'result'>;
  closedByListener: Counter<'reason'>;
  open: Gauge;
  messagesAccepted: Counter;
  messagesRefused: Counter<'reason'>;
  recipientsRefused: Counter<'reason'>;
  bytes: Counter;
}

/** Looked up before being created: tests (or two listeners) may share one registry. */
export function smtpMetrics(registry: Registry | undefined): SmtpMetrics {
  const registers = registry === undefined ? [] : [registry];
  const existing = <T>(name: string): T | undefined => registry?.getSingleMetric(name) as T | undefined;
  return {
    connections:
      existing<Counter<'result'>>('herald_smtp_connections_total') ??
      new Counter({
        name: 'herald_smtp_connections_total',
        help:
          'Inbound SMTP connections, by result (accepted; refused_rate, refused_concurrency: per address; ' +
          'refused_network_rate, refused_network_concurrency: per network; refused_full: every connection waits for our reply)',
        labelNames: ['result'],
        registers,
      }),
    closedByListener:
      existing<Counter<'reason'>>('herald_smtp_connections_closed_total') ??
      new Counter({
        name: 'herald_smtp_connections_closed_total',
        help:
          'Admitted connections the listener closed, by reason (greeting_timeout; transaction_timeout: no progress ' +
          'inside a mail transaction; evicted_silent, evicted_idle, evicted_transaction: the idlest, closed to let a ' +
          'new connection in)',
        labelNames: ['reason'],
        registers,
      }),
    open:
      existing<Gauge>('herald_smtp_connections_open') ??
      new Gauge({
        name: 'herald_smtp_connections_open',
        help: 'Inbound SMTP connections admitted and still open',
        registers,
      }),
    messagesAccepted:
      existing<Counter>('herald_smtp_messages_accepted_total') ??
      new Counter({
        name: 'herald_smtp_messages_accepted_total',
        help: 'Inbound messages handed on and answered 250',
        registers,
      }),
    messagesRefused:
      existing<Counter<'reason'>>('herald_smtp_messages_refused_total') ??
      new Counter({
        name: 'herald_smtp_messages_refused_total',
        help: 'Inbound messages refused, by reason (size, too_many_parts, header_too_long, handler_failed, connection_limit)',
        labelNames: ['reason'],
        registers,
      }),
    recipientsRefused:
      existing<Counter<'reason'>>('herald_smtp_recipients_refused_total') ??
      new Counter({
        name: 'herald_smtp_recipients_refused_total',
        help: 'RCPT TO refused, by reason (unknown, lookup_failed)',
        labelNames: ['reason'],
        registers,
      }),
    bytes:
      existing<Counter>('herald_smtp_received_bytes_total') ??
      new Counter({
        name: 'herald_smtp_received_bytes_total',
        help: 'Message bytes received in DATA, accepted or not',
        registers,
      }),
  };
}
