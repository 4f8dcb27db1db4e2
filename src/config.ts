// Environment -> typed configuration. Every variable of operator.md is parsed here, once, at start;
// a bad value stops start-up with a message naming the variable and what it accepts.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSupportedCountry } from 'libphonenumber-js/max';
import { loadPriceList, type PriceList } from './platform/price-list.ts';
import { parsePhone } from './sms/phone.ts';
import { ConfigError } from './config-error.ts';

export type MailTransportConfig = { kind: 'log' } | { kind: 'direct' } | { kind: 'smtp'; url: string };

export type SmsProviderName = 'log' | 'twilio' | 'africastalking' | 'termii';
type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  apiPrefix: string;
  databaseUrl: string | null;
  dataDir: string;
  /** Master secret; null until resolved (generated into the data dir when embedded). */
  secret: string | null;
  /** Admin API bearer token; null means "generate when embedded, admin API off with DATABASE_URL". */
  adminToken: string | null;
  publicUrl: string;
  mailTransport: MailTransportConfig;
  mxPort: number;
  smtpPort: number;
  /** HERALD_SMTP_TLS_CERT / _KEY: PEM file paths (both or neither); STARTTLS is offered only with them. */
  smtpTlsCert: string | null;
  smtpTlsKey: string | null;
  mailDomain: string;
  dnsServers: string[];
  webhookAllowCidrs: string[];
  webhookCaFile: string | null;
  smsProvider: SmsProviderName;
  /** HERALD_SMS_SHARED_SENDER_ID: the sender ID of teams with none approved for the destination. */
  smsSharedSenderId: string;
  /** HERALD_SMS_COUNTRIES: ISO alpha-2 codes SMS may go to; null means every country. */
  smsCountries: ReadonlySet<string> | null;
  twilio: { accountSid: string | null; authToken: string | null; apiUrl: string };
  africasTalking: { username: string | null; apiKey: string | null; apiUrl: string };
  /** secretKey (HERALD_TERMII_SECRET_KEY) signs Termii's delivery reports; unset, none is trusted. */
  termii: { apiKey: string | null; apiUrl: string; secretKey: string | null };
  /** HERALD_PRICES_FILE, resolved; `prices` is its content, checked at start. */
  pricesFile: string;
  prices: PriceList;
  stripe: { secretKey: string | null; apiUrl: string };
  /** HERALD_RISK_MEDIUM_AT / HERALD_RISK_HIGH_AT: score thresholds of the MEDIUM and HIGH levels. */
  risk: { mediumAt: number; highAt: number };
  redisUrl: string | null;
  logLevel: LogLevel;
}

export { ConfigError };

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function port(env: Env, name: string, fallback: number, allowZero = false): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const n = Number(raw);
  const min = allowZero ? 0 : 1;
  if (!/^\d+$/.test(raw) || n < min || n > 65535) {
    throw new ConfigError(name, `a port number from ${min} to 65535`, raw);
  }
  return n;
}

function httpUrl(env: Env, name: string, fallback: string | null): string | null {
  const raw = text(env, name);
  if (raw === null) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'an absolute http:// or https:// URL', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, 'an absolute http:// or https:// URL', raw);
  }
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `one of ${allowed.join(', ')}`, raw);
  }
  return raw as T;
}

function apiPrefix(env: Env): string {
  const raw = env.HERALD_API_PREFIX;
  if (raw === undefined) return '/api';
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(trimmed)) {
    throw new ConfigError('HERALD_API_PREFIX', 'a path starting with / (or empty for none)', raw);
  }
  return trimmed;
}

function databaseUrl(env: Env): string | null {
  const raw = text(env, 'DATABASE_URL');
  if (raw === null) return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError('DATABASE_URL', 'a postgres:// or postgresql:// URL', raw);
  }
  try {
    new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'a postgres:// or postgresql:// URL', raw);
  }
  return raw;
}

function mailTransport(env: Env): MailTransportConfig {
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

function dnsServers(env: Env): string[] {
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

function cidrs(env: Env): string[] {
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

function mailDomain(env: Env): string {
  const raw = text(env, 'HERALD_MAIL_DOMAIN');
  if (raw === null) return 'localhost';
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
function smtpTls(env: Env): { cert: string | null; key: string | null } {
  const certFile = text(env, 'HERALD_SMTP_TLS_CERT');
  const keyFile = text(env, 'HERALD_SMTP_TLS_KEY');
  const certAccepts = 'the path of a readable PEM certificate (chain) file, set together with HERALD_SMTP_TLS_KEY';
  const keyAccepts = 'the path of a readable PEM private key file matching HERALD_SMTP_TLS_CERT, set together with it';
  if (certFile === null && keyFile === null) return { cert: null, key: null };
  if (certFile === null) throw new ConfigError('HERALD_SMTP_TLS_CERT', certAccepts, '');
  if (keyFile === null) throw new ConfigError('HERALD_SMTP_TLS_KEY', keyAccepts, '');
  const cert = path.resolve(certFile);
  const key = path.resolve(keyFile);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(readPem('HERALD_SMTP_TLS_CERT', cert, certAccepts));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError('HERALD_SMTP_TLS_CERT', certAccepts, certFile);
  }
  const keyPem = readPem('HERALD_SMTP_TLS_KEY', key, keyAccepts);
  let matches: boolean;
  try {
    matches = certificate.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    matches = false;
  }
  if (!matches) throw new ConfigError('HERALD_SMTP_TLS_KEY', keyAccepts, keyFile);
  return { cert, key };
}

/** The price list shipped with Herald, found from this file so the working directory does not matter. */
export const DEFAULT_PRICES_FILE = fileURLToPath(new URL('../config/prices.json', import.meta.url));

const SMS_PROVIDERS: readonly SmsProviderName[] = ['log', 'twilio', 'africastalking', 'termii'];

/** Same rule as a team's sender IDs (operator.md): 1 to 11 letters, digits or spaces with a letter, or E.164. */
function senderId(env: Env): string {
  const raw = text(env, 'HERALD_SMS_SHARED_SENDER_ID');
  if (raw === null) return 'Herald';
  if (!/^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/.test(raw) && !parsePhone(raw).ok) {
    throw new ConfigError(
      'HERALD_SMS_SHARED_SENDER_ID',
      '1 to 11 letters, digits or spaces with at least one letter, or an E.164 phone number',
      raw,
    );
  }
  return raw;
}

function smsCountries(env: Env): ReadonlySet<string> | null {
  const raw = text(env, 'HERALD_SMS_COUNTRIES');
  if (raw === null) return null;
  const codes = raw
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  for (const code of codes) {
    if (!/^[A-Z]{2}$/.test(code) || !isSupportedCountry(code)) {
      throw new ConfigError(
        'HERALD_SMS_COUNTRIES',
        'comma-separated ISO 3166 alpha-2 country codes such as NG,KE',
        raw,
      );
    }
  }
  return codes.length === 0 ? null : new Set(codes);
}

/** The chosen provider's credentials must be there at start, not discovered missing at the first send. */
function requireCredentials(provider: SmsProviderName, required: Array<[string, string | null]>): void {
  for (const [name, value] of required) {
    if (value === null) {
      throw new ConfigError(name, `the provider's credential (required with HERALD_SMS_PROVIDER=${provider})`, '');
    }
  }
}

const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const portNumber = port(env, 'PORT', 3000);
  const host = text(env, 'HOST') ?? '127.0.0.1';
  const dbUrl = databaseUrl(env);
  const secret = text(env, 'HERALD_SECRET');
  if (secret !== null && secret.length < 32) {
    throw new ConfigError('HERALD_SECRET', 'a random string of at least 32 characters', '<hidden>');
  }
  if (dbUrl !== null && secret === null) {
    throw new ConfigError(
      'HERALD_SECRET',
      'a random string of at least 32 characters (required with DATABASE_URL)',
      '',
    );
  }
  const adminToken = text(env, 'HERALD_ADMIN_TOKEN');
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('HERALD_ADMIN_TOKEN', 'a random string of at least 16 characters', '<hidden>');
  }
  const defaultPublic = `http://${host.includes(':') ? `[${host}]` : host}:${portNumber}`;
  const caFile = text(env, 'HERALD_WEBHOOK_CA_FILE');
  const tls = smtpTls(env);
  const smsProvider = oneOf(env, 'HERALD_SMS_PROVIDER', SMS_PROVIDERS, 'log');
  const twilio = {
    accountSid: text(env, 'HERALD_TWILIO_ACCOUNT_SID'),
    authToken: text(env, 'HERALD_TWILIO_AUTH_TOKEN'),
    apiUrl: httpUrl(env, 'HERALD_TWILIO_API_URL', 'https://api.twilio.com')!,
  };
  const africasTalking = {
    username: text(env, 'HERALD_AT_USERNAME'),
    apiKey: text(env, 'HERALD_AT_API_KEY'),
    apiUrl: httpUrl(env, 'HERALD_AT_API_URL', 'https://api.africastalking.com')!,
  };
  const termii = {
    apiKey: text(env, 'HERALD_TERMII_API_KEY'),
    apiUrl: httpUrl(env, 'HERALD_TERMII_API_URL', 'https://api.ng.termii.com')!,
    secretKey: text(env, 'HERALD_TERMII_SECRET_KEY'),
  };
  const credentials: Record<SmsProviderName, Array<[string, string | null]>> = {
    log: [],
    twilio: [
      ['HERALD_TWILIO_ACCOUNT_SID', twilio.accountSid],
      ['HERALD_TWILIO_AUTH_TOKEN', twilio.authToken],
    ],
    africastalking: [
      ['HERALD_AT_USERNAME', africasTalking.username],
      ['HERALD_AT_API_KEY', africasTalking.apiKey],
    ],
    termii: [['HERALD_TERMII_API_KEY', termii.apiKey]],
  };
  requireCredentials(smsProvider, credentials[smsProvider]);
  const pricesFile = path.resolve(text(env, 'HERALD_PRICES_FILE') ?? DEFAULT_PRICES_FILE);
  return {
    port: portNumber,
    host,
    apiPrefix: apiPrefix(env),
    databaseUrl: dbUrl,
    dataDir: path.resolve(text(env, 'HERALD_DATA_DIR') ?? './data'),
    secret,
    adminToken,
    publicUrl: httpUrl(env, 'HERALD_PUBLIC_URL', defaultPublic)!,
    mailTransport: mailTransport(env),
    mxPort: port(env, 'HERALD_MX_PORT', 25),
    smtpPort: port(env, 'HERALD_SMTP_PORT', 2525, true),
    smtpTlsCert: tls.cert,
    smtpTlsKey: tls.key,
    mailDomain: mailDomain(env),
    dnsServers: dnsServers(env),
    webhookAllowCidrs: cidrs(env),
    webhookCaFile: caFile === null ? null : path.resolve(caFile),
    smsProvider,
    smsSharedSenderId: senderId(env),
    smsCountries: smsCountries(env),
    twilio,
    africasTalking,
    termii,
    pricesFile,
    prices: loadPriceList(pricesFile),
    stripe: {
      secretKey: text(env, 'HERALD_STRIPE_SECRET_KEY'),
      apiUrl: httpUrl(env, 'HERALD_STRIPE_API_URL', 'https://api.stripe.com')!,
    },
    risk: riskThresholds(env),
    redisUrl: redisUrl(env),
    logLevel: oneOf(env, 'LOG_LEVEL', logLevels, 'info'),
  };
}

function scoreThreshold(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100)
    throw new ConfigError(name, 'a whole number from 1 to 100', raw);
  return Number(raw);
}

function riskThresholds(env: Env): { mediumAt: number; highAt: number } {
  const mediumAt = scoreThreshold(env, 'HERALD_RISK_MEDIUM_AT', 30);
  const highAt = scoreThreshold(env, 'HERALD_RISK_HIGH_AT', 60);
  if (highAt <= mediumAt)
    throw new ConfigError('HERALD_RISK_HIGH_AT', `a score above HERALD_RISK_MEDIUM_AT (${mediumAt})`, String(highAt));
  return { mediumAt, highAt };
}

function redisUrl(env: Env): string | null {
  const raw = text(env, 'REDIS_URL');
  if (raw === null) return null;
  if (!/^rediss?:\/\/[^\s]+$/.test(raw)) {
    throw new ConfigError('REDIS_URL', 'a redis:// or rediss:// URL', raw);
  }
  return raw;
}
