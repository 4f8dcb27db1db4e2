// HERALD_RETENTION_BODIES_DAYS and HERALD_RETENTION_EVENTS_DAYS (operator.md): their defaults, their
// limits, and raw inbound originals following the bodies unless HERALD_INBOUND_RETENTION_DAYS says.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('retention variables', () => {
  it('keep bodies 30 days and events 90 by default, inbound originals as long as bodies', () => {
    const config = loadConfig({});
    expect(config.retention).toEqual({ bodiesDays: 30, eventsDays: 90 });
    expect(config.inboundRetentionDays).toBe(30);
    const short = loadConfig({ HERALD_RETENTION_BODIES_DAYS: '7', HERALD_RETENTION_EVENTS_DAYS: '45' });
    expect(short.retention).toEqual({ bodiesDays: 7, eventsDays: 45 });
    expect(short.inboundRetentionDays).toBe(7);
    expect(
      loadConfig({ HERALD_RETENTION_BODIES_DAYS: '7', HERALD_INBOUND_RETENTION_DAYS: '60' }).inboundRetentionDays,
    ).toBe(60);
  });

  it('refuses what is not a whole number of days from 1 to 3650, naming the variable', () => {
    for (const [name, value] of [
      ['HERALD_RETENTION_BODIES_DAYS', '0'],
      ['HERALD_RETENTION_EVENTS_DAYS', '3651'],
      ['HERALD_RETENTION_EVENTS_DAYS', '1.5'],
    ] as const)
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(
        new RegExp(`^${name}="${value.replace('.', '\\.')}" is not valid: .*a whole number of days from 1 to 3650`),
      );
  });
});
