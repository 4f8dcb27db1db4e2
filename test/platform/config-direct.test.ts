// The `direct` transport's variables (HERALD_DIRECT_*, HERALD_MTA_STS_PORT): defaults, each bound at
// its edge and one past it. A bad value stops start-up naming the variable.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configFailure } from '../support/config-failure.ts';

const direct = (env: Record<string, string>) => loadConfig(env).direct;
const TEST_CA = path.join(import.meta.dirname, '../support/tls/ca.pem');

describe('HERALD_DIRECT_* variables', () => {
  it('defaults: 5 connections per destination, IPv6 on, no bind address, the system CAs, MTA-STS on 443', () => {
    expect(direct({})).toEqual({ maxConnections: 5, ipv6: true, bindAddress: null, ca: null, mtaStsPort: 443 });
  });

  it('HERALD_DIRECT_MAX_CONNECTIONS takes 1 to 1000, not one past either end', () => {
    expect(direct({ HERALD_DIRECT_MAX_CONNECTIONS: '1' }).maxConnections).toBe(1);
    expect(direct({ HERALD_DIRECT_MAX_CONNECTIONS: '1000' }).maxConnections).toBe(1000);
    for (const bad of ['0', '1001', '2.5', 'many']) {
      expect(configFailure({ HERALD_DIRECT_MAX_CONNECTIONS: bad }).message).toContain('HERALD_DIRECT_MAX_CONNECTIONS=');
    }
  });

  it('HERALD_DIRECT_IPV6 is on or off', () => {
    expect(direct({ HERALD_DIRECT_IPV6: 'off' }).ipv6).toBe(false);
    expect(direct({ HERALD_DIRECT_IPV6: 'on' }).ipv6).toBe(true);
    expect(configFailure({ HERALD_DIRECT_IPV6: 'no' }).message).toContain('HERALD_DIRECT_IPV6=');
  });

  it('HERALD_DIRECT_BIND_ADDRESS is an IPv4 or IPv6 address', () => {
    expect(direct({ HERALD_DIRECT_BIND_ADDRESS: '192.0.2.10' }).bindAddress).toBe('192.0.2.10');
    expect(direct({ HERALD_DIRECT_BIND_ADDRESS: '2001:db8::10' }).bindAddress).toBe('2001:db8::10');
    expect(configFailure({ HERALD_DIRECT_BIND_ADDRESS: 'mail.example.com' }).message).toContain(
      'HERALD_DIRECT_BIND_ADDRESS=',
    );
  });

  it('HERALD_DIRECT_CA_FILE is read at start, and must hold a PEM certificate', () => {
    expect(direct({ HERALD_DIRECT_CA_FILE: TEST_CA }).ca).toContain('-----BEGIN CERTIFICATE-----');
    const notPem = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-ca-')), 'ca.txt');
    fs.writeFileSync(notPem, 'not a certificate');
    for (const bad of [notPem, '/nonexistent/ca.pem']) {
      expect(configFailure({ HERALD_DIRECT_CA_FILE: bad }).message).toContain('HERALD_DIRECT_CA_FILE=');
    }
  });

  it('HERALD_MTA_STS_PORT is a port', () => {
    expect(direct({ HERALD_MTA_STS_PORT: '8443' }).mtaStsPort).toBe(8443);
    expect(configFailure({ HERALD_MTA_STS_PORT: '70000' }).message).toContain('HERALD_MTA_STS_PORT=');
  });
});
