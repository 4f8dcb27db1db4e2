// What the rest of Herald uses of the mail transport: the interface, and one factory that picks the
// implementation HERALD_MAIL_TRANSPORT names.
import type { ConnectionOptions } from 'node:tls';
import type { MailTransportConfig } from '../../config.ts';
import type { DnsResolver } from '../dns.ts';
import { createDirectTransport, type DirectTransportOptions } from './direct.ts';
import { createLogTransport, type RecordMessage } from './log.ts';
import { createSmtpRelayTransport } from './smtp-relay.ts';
import type { MailTransport } from './types.ts';

export type {
  DeliveryResult,
  DestinationBackoff,
  DestinationLedger,
  DestinationTrouble,
  Envelope,
  LoggedMessage,
  MailTransport,
  RecipientOutcome,
  RecipientStatus,
} from './types.ts';
export type { RecordMessage } from './log.ts';
export {
  createDirectTransport,
  type DestinationStats,
  type DirectTransport,
  type DirectTransportOptions,
} from './direct.ts';
export type { TlsOutcome } from './mx-sessions.ts';
export { backoffAfter, backoffAfterSuccess, memoryDestinationLedger } from './destination-backoff.ts';
export { createLogTransport } from './log.ts';
export { createSmtpRelayTransport, type SmtpRelayOptions } from './smtp-relay.ts';

export interface MailTransportDeps {
  dns: DnsResolver;
  /** HERALD_MX_PORT. */
  mxPort: number;
  /** HERALD_MAIL_DOMAIN: the EHLO name. */
  mailDomain: string;
  /** Where the `log` transport hands each message (the outbox). */
  record: RecordMessage;
  /** TLS options for the relay (a private CA); the direct transport never requires valid certificates. */
  relayTls?: ConnectionOptions;
  timeoutMs?: number;
  /** The `direct` transport's settings (HERALD_DIRECT_*) and the deployment's ledger of destinations. */
  direct?: Pick<
    DirectTransportOptions,
    'maxConnections' | 'ipv6' | 'bindAddress' | 'ca' | 'mtaStsPort' | 'ledger' | 'now' | 'onTrouble' | 'onMtaStsReport'
  >;
}

export function createMailTransport(config: MailTransportConfig, deps: MailTransportDeps): MailTransport {
  switch (config.kind) {
    case 'log':
      return createLogTransport(deps.record);
    case 'smtp':
      return createSmtpRelayTransport({
        url: config.url,
        heloName: deps.mailDomain,
        ...(deps.relayTls ? { tls: deps.relayTls } : {}),
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      });
    case 'direct':
      return createDirectTransport({
        dns: deps.dns,
        mxPort: deps.mxPort,
        heloName: deps.mailDomain,
        ...deps.direct,
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      });
  }
}
