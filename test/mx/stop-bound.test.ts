// A stopping process never waits for good on one of its parts (issue 41: SIGTERM hung behind a parse
// that never settled): stopWithin gives a part's stop its bound, then logs and goes on, leaving the
// work in hand to its lease or spool row.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/runtime.ts';
import { stopWithin } from '../../src/services.ts';

function runtimeLogging(lines: object[]): Runtime {
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { deps: { logger }, adminTokenGenerated: false, close: async () => {} } as unknown as Runtime;
}

describe('stopWithin', () => {
  it('gives up on a stop that never settles after its bound, and says so', async () => {
    const lines: object[] = [];
    const started = performance.now();
    await stopWithin(runtimeLogging(lines), 'inbound backlog', 100, () => new Promise<never>(() => {}));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(lines).toContainEqual(
      expect.objectContaining({ part: 'inbound backlog', boundMs: 100, msg: expect.stringMatching(/gave up waiting/) }),
    );
  });

  it('waits for a stop that settles, and a failing stop does not throw', async () => {
    const lines: object[] = [];
    let stopped = false;
    await stopWithin(runtimeLogging(lines), 'api', 10_000, async () => {
      stopped = true;
    });
    expect(stopped).toBe(true);
    await stopWithin(runtimeLogging(lines), 'api', 10_000, () => Promise.reject(new Error('boom')));
    expect(lines).toContainEqual(expect.objectContaining({ part: 'api', msg: 'stop failed' }));
  });
});
