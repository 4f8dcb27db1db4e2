// The mail variables: transport, Herald's own mail domain, DNS servers, the inbound listener's TLS
// files, and the webhook network rules (CIDR exemptions, extra CAs).
import { X509Certificate, createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { ConfigError } from '../config-error.ts';
import { text, type Env } from './parse.ts';

export type MailTransportConfig = { kind: 'log' } | { kind: 'direct' } | { kind: 'smtp'; url: string };

export function mailTransport(env: Env): MailTransportConfig {
  const raw = text(env, 'HERALD_MAIL_TRANSPORT');
  if (raw === null || raw === 'log') return { kind: 'log' };
  if (raw === 'direct') return { kind: 'direct' };
  const accepts = 'log, direct, smtp://[user:pass@]host:port or smtps://[user:pass@]host:port';
  try {
    const url = new URL(raw);
    if ((url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '') {
      return { kind: 'smtp', url: raw };
    }
  } catch {
    // falls through to the error below
  }
  throw new ConfigError('HERALD_MAIL_TRANSPORT', accepts, raw);
}

export function dnsServers(env: Env): string[] {
  const raw = text(env, 'HERALD_DNS_SERVERS');
  if (raw === null) return [];
  const servers = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const server of servers) {
    if (!isDnsServer(server)) {
      throw new ConfigError('HERALD_DNS_SERVERS', 'comma-separated ip[:port] entries', raw);
    }
  }
  return servers;
}

function isDnsServer(entry: string): boolean {
  if (isIP(entry) !== 0) return true;
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]!) === 6 && Number(bracketed[2]) <= 65535;
  const v4 = /^([\d.]+):(\d{1,5})$/.exec(entry);
  return v4 !== null && isIP(v4[1]!) === 4 && Number(v4[2]) <= 65535;
}

export function webhookAllowCidrs(env: Env): string[] {
  const raw = text(env, 'HERALD_WEBHOOK_ALLOW_CIDRS');
  if (raw === null) return [];
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const cidr of list) {
    const [address, bits] = cidr.split('/');
    const family = isIP(address ?? '');
    const max = family === 6 ? 128 : 32;
    if (family === 0 || bits === undefined || !/^\d+$/.test(bits) || Number(bits) > max) {
      throw new ConfigError('HERALD_WEBHOOK_ALLOW_CIDRS', 'comma-separated CIDR ranges such as 127.0.0.0/8', raw);
    }
  }
  return list;
}

export function webhookCaFile(env: Env): string | null {
  const caFile = text(env, 'HERALD_WEBHOOK_CA_FILE');
  return caFile === null ? null : path.resolve(caFile);
}

export function mailDomain(env: Env): string {
  const raw = text(env, 'HERALD_MAIL_DOMAIN');
  if (raw === null) return 'herald.localhost';
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(raw)) {
    throw new ConfigError('HERALD_MAIL_DOMAIN', 'a domain name such as mail.example.com', raw);
  }
  return raw.toLowerCase();
}

function readPem(name: string, file: string, accepts: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(name, `${accepts} (the file cannot be read)`, file);
  }
}

/**
 * HERALD_SMTP_TLS_CERT and HERALD_SMTP_TLS_KEY. Read and checked here, at start, so that a wrong
 * path, a swapped pair or a key of another certificate stops start-up instead of failing the first
 * STARTTLS (where senders silently fall back to plain text and nobody notices).
 */
export function smtpTls(env: Env): { cert: string | null; key: string | null } {
  return pemFilePair(env, 'HERALD_SMTP_TLS_CERT', 'HERALD_SMTP_TLS_KEY');
}

/**
 * A certificate (chain) file and its private key file, named by `certName` and `keyName`: both or
 * neither, readable PEM, the key the certificate's. Resolved paths, or nulls when neither is set.
 */
export function pemFilePair(env: Env, certName: string, keyName: string): { cert: string | null; key: string | null } {
  const certFile = text(env, certName);
  const keyFile = text(env, keyName);
  const certAccepts = `the path of a readable PEM certificate (chain) file, set together with ${keyName}`;
  const keyAccepts = `the path of a readable PEM private key file matching ${certName}, set together with it`;
  if (certFile === null && keyFile === null) return { cert: null, key: null };
  if (certFile === null) throw new ConfigError(certName, certAccepts, '');
  if (keyFile === null) throw new ConfigError(keyName, keyAccepts, '');
  const cert = path.resolve(certFile);
  const key = path.resolve(keyFile);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(readPem(certName, cert, certAccepts));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(certName, certAccepts, certFile);
  }
  const keyPem = readPem(keyName, key, keyAccepts);
  let matches: boolean;
  try {
    matches = certificate.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    matches = false;
  }
  if (!matches) throw new ConfigError(keyName, keyAccepts, keyFile);
  return { cert, key };
}
