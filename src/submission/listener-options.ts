// What the submission listener is started with: its limits (with their defaults), its dependencies
// and options, and what a started listener gives back (listener.ts).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { RECIPIENTS_MAX } from '../emails/index.ts';
import type { RateLimiter } from '../platform/rate-limit/index.ts';
import type { AuthDeps } from './auth.ts';
import type { SubmitDeps } from './submit-message.ts';

export interface SubmissionLimits {
  /** Advertised with SIZE: the API's request body limit (20 MB); larger is 552 5.3.4. */
  maxMessageBytes: number;
  /** Envelope recipients per message: the contract's 50; the 51st is 452 4.5.3. */
  maxRecipients: number;
  /** Connections open at once; past it smtp-server answers 421. */
  maxClients: number;
  /** RFC 5321 4.5.3.2.7: the wait for a client's next command. */
  idleTimeoutMs: number;
  /** On stop(), how long a message in progress may take before its connection is cut. */
  closeTimeoutMs: number;
}

export const defaultSubmissionLimits: SubmissionLimits = {
  maxMessageBytes: 20 * 1024 * 1024,
  maxRecipients: RECIPIENTS_MAX,
  maxClients: 1000,
  idleTimeoutMs: 5 * 60_000,
  closeTimeoutMs: 10_000,
};

export interface SubmissionListenerDeps extends SubmitDeps, AuthDeps {
  rateLimiter: RateLimiter;
  logger: Logger;
  metrics?: Registry;
}

export interface SubmissionListenerOptions {
  host: string;
  /** The STARTTLS port: 0 any free port, null off. */
  port: number | null;
  /** The implicit TLS port: 0 any free port, null off (always off without `tls`). */
  tlsPort: number | null;
  /** PEM certificate (chain) and key; null: no TLS, so AUTH only from loopback. */
  tls: { cert: string; key: string } | null;
  /** Name in the greeting and EHLO reply (HERALD_MAIL_DOMAIN). */
  hostname: string;
  limits?: Partial<SubmissionLimits>;
  /** AUTH without TLS from loopback (default true); tests turn it off to see the rule refuse. */
  plaintextAuthFromLoopback?: boolean;
}

export interface SubmissionListener {
  /** The STARTTLS port and the implicit TLS port as bound (null: off). */
  port: number | null;
  tlsPort: number | null;
  stop(): Promise<void>;
}
