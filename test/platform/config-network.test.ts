// HOST, HERALD_METRICS_PORT and the rule that a refused value never shows a password.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { withoutPasswords } from '../../src/config-error.ts';

const SECRET = 'a-long-enough-master-secret-0123456789';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('HOST', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['::', '::'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['localhost', 'localhost'],
    ['api-1.internal.example', 'api-1.internal.example'],
    [`${'a'.repeat(63)}.example`, `${'a'.repeat(63)}.example`],
  ])('accepts %s', (given, host) => {
    expect(loadConfig({ HOST: given }).host).toBe(host);
  });

  it('defaults to 127.0.0.1, blank included', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '  ' }).host).toBe('127.0.0.1');
  });

  it.each([
    'bad host',
    'http://0.0.0.0',
    '127.0.0.1:3000',
    '-leading.example',
    `${'a'.repeat(64)}.example`,
    'host_name',
  ])('refuses %j naming HOST', (given) => {
    expect(refusal({ HOST: given })).toMatch(/^HOST=.* is not valid: HOST accepts an IP address/);
  });
});

describe('HERALD_METRICS_PORT', () => {
  it('is off (metrics on PORT) when unset or blank', () => {
    expect(loadConfig({}).metricsPort).toBeNull();
    expect(loadConfig({ HERALD_METRICS_PORT: ' ' }).metricsPort).toBeNull();
  });

  it.each([
    ['1', 1],
    ['9464', 9464],
    ['65535', 65535],
  ])('accepts %s', (given, port) => {
    expect(loadConfig({ HERALD_METRICS_PORT: given }).metricsPort).toBe(port);
  });

  it.each(['0', '65536', '-1', 'metrics', '9464.5'])('refuses %j', (given) => {
    expect(refusal({ HERALD_METRICS_PORT: given })).toContain(
      'HERALD_METRICS_PORT accepts a port number from 1 to 65535',
    );
  });
});

describe('DATABASE_URL: the part that is wrong is named, the value never shown', () => {
  const PASSWORD = 'hunter2 secret';
  it.each([
    [`postgres://herald:${PASSWORD}@db:notaport/herald`, 'its port is not a number from 1 to 65535'],
    [`postgresql://:${PASSWORD}@db:70000/herald`, 'its port is not a number from 1 to 65535'],
    [`mysql://herald:${PASSWORD}@db/herald`, 'its scheme is not postgres:// or postgresql://'],
    [`herald:${PASSWORD}@db/herald`, 'it does not start with a scheme and :// (postgres://)'],
    // Unencoded, these end the host part early: the host would be read from inside the password.
    [
      `postgres://herald:${PASSWORD}/x@db/herald`,
      'its user name or password holds a / ? # or @ that is not percent-encoded',
    ],
    [
      'postgres://herald:1234#hunter2@db/herald',
      'its user name or password holds a / ? # or @ that is not percent-encoded',
    ],
    [`postgres://herald:${PASSWORD}@d b/herald`, 'its host is missing or not a valid host name or address'],
    [
      `postgres://herald:${PASSWORD}@db/her%zzald`,
      'its database name holds a % that is not followed by two hex digits',
    ],
  ])('%s', (value, problem) => {
    const message = refusal({ DATABASE_URL: value, HERALD_SECRET: SECRET });
    expect(message).toContain(`DATABASE_URL is not valid: ${problem}`);
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('herald:');
  });

  it.each([
    // PostgreSQL takes a password with spaces as it is; refusing it would refuse a working URL.
    `postgres://herald:${PASSWORD}@127.0.0.1:5432/herald`,
    'postgres://herald:p%40ss@db/herald',
    'postgres://herald:p@ss@db:5432/herald',
    'postgresql://[::1]:5432/herald?sslmode=require',
    'postgres:///herald?host=/var/run/postgresql',
  ])('accepts %s', (value) => {
    expect(loadConfig({ DATABASE_URL: value, HERALD_SECRET: SECRET }).databaseUrl).toBe(value);
  });
});

describe('a refused value never shows a password', () => {
  it.each([
    ['REDIS_URL', 'http://default:hunter2-secret@cache:6379', 'http://default:***@cache:6379'],
    ['HERALD_MAIL_TRANSPORT', 'smtp://user:hunter2-secret@', 'smtp://user:***@'],
  ])('%s', (variable, value, shown) => {
    const message = refusal({ [variable]: value, HERALD_SECRET: SECRET });
    expect(message).toContain(variable);
    expect(message).toContain(shown);
    expect(message).not.toContain('hunter2');
  });

  it('hides a password holding @ or / whole, and a password= parameter', () => {
    expect(withoutPasswords('postgres://u:p@ss/w@rd@db/x')).toBe('postgres://u:***@db/x');
    expect(withoutPasswords('postgres://db/x?sslmode=require&password=hunter2')).toBe(
      'postgres://db/x?sslmode=require&password=***',
    );
  });

  it('leaves a URL without a password as it is', () => {
    expect(withoutPasswords('postgres://herald@db:5432/herald')).toBe('postgres://herald@db:5432/herald');
    expect(withoutPasswords('redis://cache:6379')).toBe('redis://cache:6379');
  });
});
