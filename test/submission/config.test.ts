// Submission's variables (HERALD_SUBMISSION_PORT, HERALD_SUBMISSIONS_PORT, HERALD_TLS_CERT_FILE /
// HERALD_TLS_KEY_FILE) and its certificate: the operator's, or on the embedded default a
// self-signed one made once in the data directory and kept.
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { selfSignedDir, submissionTls } from '../../src/submission/tls-certificate.ts';
import { configFailure } from '../support/config-failure.ts';

const CERT = 'test/support/tls/server.pem';
const KEY = 'test/support/tls/server-key.pem';
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-submission-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('submission variables', () => {
  it('default to STARTTLS on 2587 and no implicit TLS without a certificate; 0 turns a port off', () => {
    expect(loadConfig({}).submission).toEqual({ port: 2587, tlsPort: 0, tlsCertFile: null, tlsKeyFile: null });
    expect(loadConfig({ HERALD_SUBMISSION_PORT: '0' }).submission.port).toBe(0);
    const withCert = loadConfig({ HERALD_TLS_CERT_FILE: CERT, HERALD_TLS_KEY_FILE: KEY }).submission;
    expect(withCert).toEqual({
      port: 2587,
      tlsPort: 2465,
      tlsCertFile: path.resolve(CERT),
      tlsKeyFile: path.resolve(KEY),
    });
    expect(
      loadConfig({ HERALD_TLS_CERT_FILE: CERT, HERALD_TLS_KEY_FILE: KEY, HERALD_SUBMISSIONS_PORT: '0' }).submission
        .tlsPort,
    ).toBe(0);
  });

  it.each([
    ['HERALD_SUBMISSION_PORT', { HERALD_SUBMISSION_PORT: '70000' }, 'a port number from 0 to 65535'],
    ['HERALD_SUBMISSIONS_PORT', { HERALD_SUBMISSIONS_PORT: '2465' }, 'implicit TLS needs a certificate'],
    ['HERALD_TLS_KEY_FILE', { HERALD_TLS_CERT_FILE: CERT }, 'set together with it'],
    ['HERALD_TLS_CERT_FILE', { HERALD_TLS_KEY_FILE: KEY }, 'set together with HERALD_TLS_KEY_FILE'],
    ['HERALD_TLS_CERT_FILE', { HERALD_TLS_CERT_FILE: KEY, HERALD_TLS_KEY_FILE: KEY }, 'PEM certificate'],
    [
      'HERALD_TLS_KEY_FILE',
      { HERALD_TLS_CERT_FILE: CERT, HERALD_TLS_KEY_FILE: 'test/support/tls/missing.pem' },
      'cannot be read',
    ],
  ])('stop start-up naming %s', (variable, env, accepts) => {
    const error = configFailure(env);
    expect(error.message.startsWith(`${variable}=`), error.message).toBe(true);
    expect(error.message).toContain(accepts);
  });
});

describe('the certificate', () => {
  const sources = (dataDir: string) => ({
    tlsCertFile: null,
    tlsKeyFile: null,
    databaseUrl: null,
    dataDir,
    mailDomain: 'mail.herald.test',
  });

  it('on the embedded default: self-signed, made once in the data directory and kept', async () => {
    const dataDir = tempDir();
    const first = submissionTls(sources(dataDir), new Date())!;
    expect(first.selfSigned).toBe(true);
    expect(first.certFile).toBe(path.join(selfSignedDir(dataDir), 'cert.pem'));
    const certificate = new X509Certificate(first.cert);
    expect(certificate.fingerprint256).toBe(first.fingerprint);
    expect(certificate.subjectAltName).toBe(
      'DNS:mail.herald.test, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    expect(fs.statSync(path.join(selfSignedDir(dataDir), 'key.pem')).mode & 0o077).toBe(0);
    // The next start presents the same certificate.
    expect(submissionTls(sources(dataDir), new Date())!.fingerprint).toBe(first.fingerprint);

    // A TLS client that trusts it completes a handshake for localhost.
    const server = tls.createServer({ cert: first.cert, key: first.key }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const authorized = await new Promise<boolean>((resolve, reject) => {
      const socket = tls.connect({ port, host: '127.0.0.1', servername: 'localhost', ca: first.cert }, () => {
        resolve(socket.authorized);
        socket.destroy();
      });
      socket.on('error', reject);
    });
    server.close();
    expect(authorized).toBe(true);
  });

  it("the operator's when given; none with DATABASE_URL and no certificate", () => {
    const given = submissionTls(
      { ...sources(tempDir()), tlsCertFile: path.resolve(CERT), tlsKeyFile: path.resolve(KEY) },
      new Date(),
    )!;
    expect(given).toMatchObject({ selfSigned: false, certFile: path.resolve(CERT) });
    expect(given.fingerprint).toBe(new X509Certificate(fs.readFileSync(CERT)).fingerprint256);
    const dataDir = tempDir();
    expect(submissionTls({ ...sources(dataDir), databaseUrl: 'postgres://db/herald' }, new Date())).toBeNull();
    expect(fs.existsSync(selfSignedDir(dataDir))).toBe(false);
  });
});
