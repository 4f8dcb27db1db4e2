// The listener's admission rules, each at its edge and one past it: connections at once and per
// minute, per address and per network (IPv4 /24, IPv6 /64); and the order in which a full listener
// closes idle connections (the oldest progress first, whatever its state; never one awaiting our reply).
import { describe, expect, it } from 'vitest';
import {
  addressKey,
  ConnectionLimits,
  networkKey,
  type ConnectionLimitsOptions,
} from '../../src/mx/connection-limits.ts';
import { OpenConnections, type IdleKind } from '../../src/mx/open-connections.ts';

const generous = {
  perMinutePerAddress: 1_000,
  concurrentPerAddress: 1_000,
  perMinutePerNetwork: 1_000,
  concurrentPerNetwork: 1_000,
};

function limits(overrides: Partial<ConnectionLimitsOptions>, now = () => Date.parse('2026-01-01T00:00:10Z')) {
  return new ConnectionLimits({ ...generous, now, ...overrides });
}

describe('keys', () => {
  it('counts IPv4-mapped IPv6 as IPv4 and writes IPv6 one way', () => {
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('2001:DB8::1')).toBe(addressKey('2001:db8:0:0:0:0:0:1'));
    expect(addressKey('2001:db8::1')).not.toBe(addressKey('2001:db8::2'));
  });

  it('puts an IPv4 address in its /24 and an IPv6 address in its /64', () => {
    expect(networkKey('192.0.2.0')).toBe(networkKey('192.0.2.255'));
    expect(networkKey('192.0.2.255')).not.toBe(networkKey('192.0.3.0'));
    expect(networkKey('::ffff:192.0.2.9')).toBe(networkKey('192.0.2.1'));
    expect(networkKey('2001:db8:0:0::1')).toBe(networkKey('2001:db8::ffff:ffff:ffff:ffff'));
    expect(networkKey('2001:db8:0:0:ffff::1')).toBe(networkKey('2001:db8::1'));
    expect(networkKey('2001:db8:0:1::1')).not.toBe(networkKey('2001:db8::1'));
  });
});

describe('connections at once', () => {
  it('per address: admits the limit, refuses one more, admits again after a release', () => {
    const admission = limits({ concurrentPerAddress: 3 });
    for (let i = 0; i < 3; i++) expect(admission.admit('192.0.2.1')).toBeNull();
    expect(admission.admit('192.0.2.1')).toBe('concurrency');
    // Another address of the same network is its own client.
    expect(admission.admit('192.0.2.2')).toBeNull();
    admission.release('192.0.2.1');
    expect(admission.admit('192.0.2.1')).toBeNull();
  });

  it('per IPv4 /24: admits the limit over its addresses, refuses one more, not the next /24', () => {
    const admission = limits({ concurrentPerNetwork: 4 });
    for (let i = 1; i <= 4; i++) expect(admission.admit(`198.51.100.${i}`)).toBeNull();
    expect(admission.admit('198.51.100.200')).toBe('network_concurrency');
    expect(admission.admit('198.51.101.1')).toBeNull();
    admission.release('198.51.100.3');
    expect(admission.admit('198.51.100.200')).toBeNull();
  });

  it('per IPv6 /64: thousands of addresses in one /64 are one network', () => {
    const admission = limits({ concurrentPerNetwork: 50 });
    for (let i = 1; i <= 50; i++) expect(admission.admit(`2001:db8:0:7::${i.toString(16)}`)).toBeNull();
    expect(admission.admit('2001:db8:0:7:dead:beef:0:1')).toBe('network_concurrency');
    expect(admission.admit('2001:db8:0:8::1')).toBeNull();
  });

  it('per IPv6 address: each address of a /64 has the per-address limit', () => {
    const admission = limits({ concurrentPerAddress: 2 });
    expect(admission.admit('2001:db8::1')).toBeNull();
    expect(admission.admit('2001:db8:0:0:0:0:0:1')).toBeNull();
    expect(admission.admit('2001:db8::1')).toBe('concurrency');
    expect(admission.admit('2001:db8::2')).toBeNull();
  });
});

describe('connections per minute', () => {
  it('per address: admits the limit in a minute, refuses one more, admits again two minutes later', () => {
    let now = Date.parse('2026-01-01T00:00:10Z');
    const admission = limits({ perMinutePerAddress: 5 }, () => now);
    for (let i = 0; i < 5; i++) {
      expect(admission.admit('192.0.2.1')).toBeNull();
      admission.release('192.0.2.1');
    }
    expect(admission.admit('192.0.2.1')).toBe('rate');
    expect(admission.admit('192.0.2.2')).toBeNull();
    now += 2 * 60_000;
    expect(admission.admit('192.0.2.1')).toBeNull();
  });

  it('per network: admits the limit over its addresses in a minute, refuses one more, not the next /24', () => {
    let now = Date.parse('2026-01-01T00:00:10Z');
    const admission = limits({ perMinutePerNetwork: 6 }, () => now);
    for (let i = 1; i <= 6; i++) {
      expect(admission.admit(`203.0.113.${i}`)).toBeNull();
      admission.release(`203.0.113.${i}`);
    }
    expect(admission.admit('203.0.113.99')).toBe('network_rate');
    expect(admission.admit('203.0.114.1')).toBeNull();
    now += 2 * 60_000;
    expect(admission.admit('203.0.113.99')).toBeNull();
  });

  it('counts refused attempts: a client that keeps hammering stays refused', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const admission = limits({ perMinutePerAddress: 2, concurrentPerAddress: 1 }, () => now);
    expect(admission.admit('192.0.2.1')).toBeNull();
    expect(admission.admit('192.0.2.1')).toBe('concurrency');
    admission.release('192.0.2.1');
    expect(admission.admit('192.0.2.1')).toBe('rate');
    // Half a minute into the next window, half of the previous one still counts: 3 * 0.5 + 1 > 2.
    now += 90_000;
    expect(admission.admit('192.0.2.1')).toBe('rate');
  });
});

describe('the idlest connection', () => {
  interface Fake {
    name: string;
    state: IdleKind | 'awaiting_reply';
  }
  const make = () => {
    const open = new OpenConnections<Fake>((connection) => connection.state);
    const add = (name: string) => {
      const connection: Fake = { name, state: 'silent' };
      open.add(name, connection);
      return connection;
    };
    const next = () => open.takeIdlest()?.connection.name ?? null;
    return { open, add, next };
  };

  it('is the one whose last progress is oldest, whatever its state', () => {
    const { open, add } = make();
    const a = add('a');
    add('b');
    const c = add('c');
    const d = add('d');
    // a opened a transaction and stalled; c talked and sits between transactions; d opened one and moves on.
    a.state = 'transaction';
    open.progressed('a');
    c.state = 'idle';
    open.progressed('c');
    d.state = 'transaction';
    open.progressed('d');
    expect(open.size).toBe(4);
    expect(open.takeIdlest()).toMatchObject({ id: 'b', kind: 'silent' });
    expect(open.takeIdlest()).toMatchObject({ id: 'a', kind: 'transaction' });
    expect(open.takeIdlest()).toMatchObject({ id: 'c', kind: 'idle' });
    expect(open.takeIdlest()).toMatchObject({ id: 'd', kind: 'transaction' });
    expect(open.takeIdlest()).toBeNull();
    expect(open.size).toBe(0);
  });

  it('is never one waiting for our reply: none when every connection waits', () => {
    const { add, next } = make();
    const a = add('a');
    add('b');
    a.state = 'awaiting_reply';
    expect(next()).toBe('b');
    expect(next()).toBeNull();
    // It has its reply: it may be chosen again.
    a.state = 'transaction';
    expect(next()).toBe('a');
  });

  it('forgets a removed connection', () => {
    const { open, add, next } = make();
    add('a');
    add('b');
    open.progressed('missing');
    expect(open.remove('a')?.name).toBe('a');
    expect(open.remove('a')).toBeUndefined();
    expect(next()).toBe('b');
  });
});
