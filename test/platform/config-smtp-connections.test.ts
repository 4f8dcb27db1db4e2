// The HERALD_SMTP_* limits of the inbound listener's connections: defaults, each bound at its edge
// and one past it, and the rules between them. A bad value stops start-up naming the variable.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configFailure } from '../support/config-failure.ts';

const limits = (env: Record<string, string>) => loadConfig(env).smtpConnections;

describe('HERALD_SMTP_* connection limits', () => {
  it('defaults: 1000 clients, 20 per address and 50 per network at once, 60 and 300 a minute, 30 s, 5 min, 10 s', () => {
    expect(limits({})).toEqual({
      maxClients: 1000,
      maxConnectionsPerAddress: 20,
      maxConnectionsPerNetwork: 50,
      connectionsPerMinutePerAddress: 60,
      connectionsPerMinutePerNetwork: 300,
      greetingTimeoutMs: 30_000,
      idleTimeoutMs: 300_000,
      transactionIdleMs: 10_000,
    });
  });

  it.each([
    ['HERALD_SMTP_MAX_CLIENTS', 'maxClients', 1, 100_000],
    ['HERALD_SMTP_MAX_CONNECTIONS_PER_ADDRESS', 'maxConnectionsPerAddress', 1, 100_000],
    ['HERALD_SMTP_CONNECTIONS_PER_MINUTE_PER_ADDRESS', 'connectionsPerMinutePerAddress', 1, 1_000_000],
  ] as const)('%s takes %i to %i, not one past either end', (variable, field, min, max) => {
    expect(limits({ [variable]: String(min) })[field]).toBe(min);
    expect(limits({ [variable]: String(max) })[field]).toBe(max);
    for (const bad of [String(min - 1), String(max + 1), '2.5', 'many']) {
      expect(configFailure({ [variable]: bad }).message).toContain(`${variable}=`);
    }
  });

  it.each([
    ['HERALD_SMTP_MAX_CONNECTIONS_PER_NETWORK', 'maxConnectionsPerNetwork', 'HERALD_SMTP_MAX_CONNECTIONS_PER_ADDRESS'],
    [
      'HERALD_SMTP_CONNECTIONS_PER_MINUTE_PER_NETWORK',
      'connectionsPerMinutePerNetwork',
      'HERALD_SMTP_CONNECTIONS_PER_MINUTE_PER_ADDRESS',
    ],
  ] as const)('%s is at least the per-address limit, up to 1,000,000', (variable, field, perAddress) => {
    expect(limits({ [perAddress]: '7', [variable]: '7' })[field]).toBe(7);
    expect(limits({ [variable]: '1000000' })[field]).toBe(1_000_000);
    const below = configFailure({ [perAddress]: '7', [variable]: '6' });
    expect(below.message).toContain(`${variable}="6"`);
    expect(below.message).toContain(perAddress);
    expect(configFailure({ [variable]: '1000001' }).message).toContain(`${variable}=`);
    // Unset, it follows a per-address limit above its default.
    expect(limits({ [perAddress]: '5000' })[field]).toBe(5000);
  });

  it('HERALD_SMTP_IDLE_TIMEOUT_SECONDS takes 1 to 3600 seconds', () => {
    expect(limits({ HERALD_SMTP_IDLE_TIMEOUT_SECONDS: '3600' }).idleTimeoutMs).toBe(3_600_000);
    expect(limits({ HERALD_SMTP_IDLE_TIMEOUT_SECONDS: '1' })).toMatchObject({
      idleTimeoutMs: 1000,
      greetingTimeoutMs: 1000,
      transactionIdleMs: 1000,
    });
    for (const bad of ['0', '3601', '1.5']) {
      expect(configFailure({ HERALD_SMTP_IDLE_TIMEOUT_SECONDS: bad }).message).toContain(
        'HERALD_SMTP_IDLE_TIMEOUT_SECONDS=',
      );
    }
  });

  it('HERALD_SMTP_GREETING_TIMEOUT_SECONDS takes 1 second up to the idle timeout, not one past', () => {
    expect(limits({ HERALD_SMTP_GREETING_TIMEOUT_SECONDS: '1' }).greetingTimeoutMs).toBe(1000);
    expect(limits({ HERALD_SMTP_GREETING_TIMEOUT_SECONDS: '300' }).greetingTimeoutMs).toBe(300_000);
    const longer = configFailure({ HERALD_SMTP_GREETING_TIMEOUT_SECONDS: '301' });
    expect(longer.message).toContain('HERALD_SMTP_GREETING_TIMEOUT_SECONDS="301"');
    expect(longer.message).toContain('HERALD_SMTP_IDLE_TIMEOUT_SECONDS (300)');
    expect(configFailure({ HERALD_SMTP_GREETING_TIMEOUT_SECONDS: '0' }).message).toContain('GREETING_TIMEOUT_SECONDS=');
  });

  it('HERALD_SMTP_TRANSACTION_IDLE_SECONDS takes 1 second up to the idle timeout, not one past', () => {
    expect(limits({ HERALD_SMTP_TRANSACTION_IDLE_SECONDS: '1' }).transactionIdleMs).toBe(1000);
    expect(limits({ HERALD_SMTP_TRANSACTION_IDLE_SECONDS: '300' }).transactionIdleMs).toBe(300_000);
    const longer = configFailure({
      HERALD_SMTP_IDLE_TIMEOUT_SECONDS: '60',
      HERALD_SMTP_TRANSACTION_IDLE_SECONDS: '61',
    });
    expect(longer.message).toContain('HERALD_SMTP_TRANSACTION_IDLE_SECONDS="61"');
    expect(longer.message).toContain('HERALD_SMTP_IDLE_TIMEOUT_SECONDS (60)');
    for (const bad of ['0', '2.5', 'soon']) {
      expect(configFailure({ HERALD_SMTP_TRANSACTION_IDLE_SECONDS: bad }).message).toContain(
        'HERALD_SMTP_TRANSACTION_IDLE_SECONDS=',
      );
    }
  });
});
