// The certificate submission presents: the operator's (HERALD_TLS_CERT_FILE / HERALD_TLS_KEY_FILE,
// checked at start by src/config/submission.ts), or on the embedded default a self-signed one made
// once in the data directory and kept (its fingerprint is what an application pins, so it must not
// change from one start to the next). With DATABASE_URL and no certificate there is no TLS at all.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { selfSignedCertificate } from './self-signed.ts';

export interface SubmissionTls {
  cert: string;
  key: string;
  /** SHA-256 of the certificate, colon-separated hex (what `openssl x509 -fingerprint -sha256` prints). */
  fingerprint: string;
  /** Made by Herald (embedded default), not given by the operator. */
  selfSigned: boolean;
  /** Where the certificate is. */
  certFile: string;
}

export interface TlsSources {
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
  /** null: the embedded database in dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  /** Herald's mail domain: the self-signed certificate's common name. */
  mailDomain: string;
}

/** Ten years: an application pins this certificate; nobody rotates a self-signed one. */
const SELF_SIGNED_DAYS = 3650;

export function selfSignedDir(dataDir: string): string {
  return path.join(dataDir, 'submission-tls');
}

/** The certificate to present, or null (no TLS: a server deployment without HERALD_TLS_CERT_FILE). */
export function submissionTls(sources: TlsSources, now: Date): SubmissionTls | null {
  if (sources.tlsCertFile !== null && sources.tlsKeyFile !== null) {
    return loaded(sources.tlsCertFile, sources.tlsKeyFile, false);
  }
  if (sources.databaseUrl !== null) return null;
  const dir = selfSignedDir(sources.dataDir);
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    const made = selfSignedCertificate([sources.mailDomain, 'localhost', '127.0.0.1', '::1'], now, SELF_SIGNED_DAYS);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The key first, each written whole under a temporary name: a start killed halfway leaves no pair
    // that does not match (a lone key is made again with its certificate).
    writeAtomically(keyFile, made.key);
    writeAtomically(certFile, made.cert);
  }
  return loaded(certFile, keyFile, true);
}

function writeAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

function loaded(certFile: string, keyFile: string, selfSigned: boolean): SubmissionTls {
  const cert = fs.readFileSync(certFile, 'utf8');
  const key = fs.readFileSync(keyFile, 'utf8');
  const certificate = new X509Certificate(cert);
  if (!certificate.checkPrivateKey(createPrivateKey(key))) {
    throw new Error(`${keyFile} is not the key of ${certFile}; remove both to have a new pair made`);
  }
  return { cert, key, fingerprint: certificate.fingerprint256, selfSigned, certFile };
}
