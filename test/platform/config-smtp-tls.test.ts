// HERALD_SMTP_TLS_CERT and HERALD_SMTP_TLS_KEY: both or neither, each a readable PEM file, the key
// the certificate's own. Anything else stops start-up naming the variable (operator.md).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configFailure } from '../support/config-failure.ts';

let dir: string;
const file = (name: string) => path.join(dir, name);

function selfSigned(prefix: string): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=mx.herald.test',
      '-keyout',
      file(`${prefix}-key.pem`),
      '-out',
      file(`${prefix}-cert.pem`),
    ],
    { stdio: 'ignore' },
  );
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-config-tls-'));
  selfSigned('one');
  selfSigned('two');
  fs.writeFileSync(file('garbage.pem'), 'not a pem file\n');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('HERALD_SMTP_TLS_CERT / HERALD_SMTP_TLS_KEY', () => {
  it('are off (no STARTTLS) when neither is set', () => {
    expect(loadConfig({})).toMatchObject({ smtpTlsCert: null, smtpTlsKey: null });
  });

  it('resolve to absolute paths for a matching pair', () => {
    const relative = path.relative(process.cwd(), file('one-cert.pem'));
    const config = loadConfig({ HERALD_SMTP_TLS_CERT: relative, HERALD_SMTP_TLS_KEY: file('one-key.pem') });
    expect(config.smtpTlsCert).toBe(file('one-cert.pem'));
    expect(config.smtpTlsKey).toBe(file('one-key.pem'));
  });

  it.each([
    ['HERALD_SMTP_TLS_KEY', 'a certificate without a key', () => ({ HERALD_SMTP_TLS_CERT: file('one-cert.pem') })],
    ['HERALD_SMTP_TLS_CERT', 'a key without a certificate', () => ({ HERALD_SMTP_TLS_KEY: file('one-key.pem') })],
    [
      'HERALD_SMTP_TLS_CERT',
      'a missing certificate file',
      () => ({ HERALD_SMTP_TLS_CERT: file('missing.pem'), HERALD_SMTP_TLS_KEY: file('one-key.pem') }),
    ],
    [
      'HERALD_SMTP_TLS_CERT',
      'a certificate file that is not PEM',
      () => ({ HERALD_SMTP_TLS_CERT: file('garbage.pem'), HERALD_SMTP_TLS_KEY: file('one-key.pem') }),
    ],
    [
      'HERALD_SMTP_TLS_CERT',
      'a key given as the certificate',
      () => ({ HERALD_SMTP_TLS_CERT: file('one-key.pem'), HERALD_SMTP_TLS_KEY: file('one-key.pem') }),
    ],
    [
      'HERALD_SMTP_TLS_KEY',
      'a missing key file',
      () => ({ HERALD_SMTP_TLS_CERT: file('one-cert.pem'), HERALD_SMTP_TLS_KEY: file('missing.pem') }),
    ],
    [
      'HERALD_SMTP_TLS_KEY',
      'a key file that is not PEM',
      () => ({ HERALD_SMTP_TLS_CERT: file('one-cert.pem'), HERALD_SMTP_TLS_KEY: file('garbage.pem') }),
    ],
    [
      'HERALD_SMTP_TLS_KEY',
      'the key of another certificate',
      () => ({ HERALD_SMTP_TLS_CERT: file('one-cert.pem'), HERALD_SMTP_TLS_KEY: file('two-key.pem') }),
    ],
  ])('names %s for %s', (variable, _case, env) => {
    const error = configFailure(env());
    expect(error.message).toContain(`${variable}=`);
    expect(error.message).toContain('accepts');
  });

  it('never puts key material in the message', () => {
    const error = configFailure({
      HERALD_SMTP_TLS_CERT: file('one-cert.pem'),
      HERALD_SMTP_TLS_KEY: file('two-key.pem'),
    });
    expect(error.message).not.toContain('PRIVATE KEY');
  });
});
