// The `direct` transport's variables (operator.md, "Dashboard, campaigns, submission, direct
// delivery, retention"): connections per destination, IPv6, the source address, extra CAs for
// MTA-STS; and the port MTA-STS policies are fetched on (443; tests point it at a loopback server).
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { ConfigError } from '../config-error.ts';
import { oneOf, port, text, wholeNumber, type Env } from './parse.ts';

export interface DirectConfig {
  /** HERALD_DIRECT_MAX_CONNECTIONS: per destination, across every worker process. */
  maxConnections: number;
  /** HERALD_DIRECT_IPV6. */
  ipv6: boolean;
  /** HERALD_DIRECT_BIND_ADDRESS. */
  bindAddress: string | null;
  /** HERALD_DIRECT_CA_FILE, read: PEM trusted beside the system's when an MTA-STS policy asks for valid certificates. */
  ca: string | null;
  /** HERALD_MTA_STS_PORT (443). */
  mtaStsPort: number;
}

export function directConfig(env: Env): DirectConfig {
  const bindAddress = text(env, 'HERALD_DIRECT_BIND_ADDRESS');
  if (bindAddress !== null && isIP(bindAddress) === 0) {
    throw new ConfigError('HERALD_DIRECT_BIND_ADDRESS', 'an IPv4 or IPv6 address of this machine', bindAddress);
  }
  return {
    maxConnections: wholeNumber(env, 'HERALD_DIRECT_MAX_CONNECTIONS', 5, 1, 1000, 'a whole number from 1 to 1000'),
    ipv6: oneOf(env, 'HERALD_DIRECT_IPV6', ['on', 'off'], 'on') === 'on',
    bindAddress,
    ca: caFile(env),
    mtaStsPort: port(env, 'HERALD_MTA_STS_PORT', 443),
  };
}

function caFile(env: Env): string | null {
  const file = text(env, 'HERALD_DIRECT_CA_FILE');
  if (file === null) return null;
  const resolved = path.resolve(file);
  try {
    const pem = fs.readFileSync(resolved, 'utf8');
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM certificate');
    return pem;
  } catch {
    throw new ConfigError('HERALD_DIRECT_CA_FILE', 'a readable PEM file of certificate authorities', file);
  }
}
