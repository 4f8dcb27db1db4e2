// SMTP submission (src/submission/): its two ports and the certificate both present. Parsed at
// start like every variable; src/submission/README.md says what each does.
import { ConfigError } from '../config-error.ts';
import { pemFilePair } from './mail.ts';
import { port, text, type Env } from './parse.ts';

export interface SubmissionConfig {
  /** HERALD_SUBMISSION_PORT: submission with STARTTLS (587 is mapped to it); 0: off. */
  port: number;
  /** HERALD_SUBMISSIONS_PORT: submission over implicit TLS (465 is mapped to it); 0: off, as without a certificate. */
  tlsPort: number;
  /**
   * HERALD_TLS_CERT_FILE / HERALD_TLS_KEY_FILE: checked PEM files (both or neither). Neither: on the
   * embedded database a self-signed certificate made once in the data directory; with DATABASE_URL,
   * no TLS (AUTH then only from loopback).
   */
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
}

export const SUBMISSION_PORT_DEFAULT = 2587;
export const SUBMISSIONS_PORT_DEFAULT = 2465;

export function submissionConfig(env: Env): SubmissionConfig {
  const submissionPort = port(env, 'HERALD_SUBMISSION_PORT', SUBMISSION_PORT_DEFAULT, true);
  const { cert, key } = pemFilePair(env, 'HERALD_TLS_CERT_FILE', 'HERALD_TLS_KEY_FILE');
  // Implicit TLS only with a certificate the operator gave: a self-signed one on a port whose whole
  // point is TLS from the first byte would only be refused by the clients that check it.
  const tlsPort = port(env, 'HERALD_SUBMISSIONS_PORT', cert === null ? 0 : SUBMISSIONS_PORT_DEFAULT, true);
  if (tlsPort !== 0 && cert === null) {
    throw new ConfigError(
      'HERALD_SUBMISSIONS_PORT',
      '0, or a port together with HERALD_TLS_CERT_FILE and HERALD_TLS_KEY_FILE (implicit TLS needs a certificate)',
      text(env, 'HERALD_SUBMISSIONS_PORT') ?? '',
    );
  }
  return { port: submissionPort, tlsPort, tlsCertFile: cert, tlsKeyFile: key };
}
