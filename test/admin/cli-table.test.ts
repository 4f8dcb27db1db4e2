// How `herald admin` prints for people on a terminal: lists as tables, a page's rows with its cursor
// under them, one object as field and value, nested values as short JSON.
import { describe, expect, it } from 'vitest';
import { tableOf } from '../../src/admin/cli-table.ts';

describe('herald admin on a terminal', () => {
  it('prints a list with a column per field, missing values as -', () => {
    expect(
      tableOf([
        { id: 1, name: 'Acme', plan: 'pro' },
        { id: 22, name: 'B', extra: true },
      ]),
    ).toBe(['ID  NAME  PLAN  EXTRA', '1   Acme  pro   -', '22  B     -     true', ''].join('\n'));
    expect(tableOf([])).toBe('(none)\n');
  });

  it("prints a page's rows and then its cursor", () => {
    expect(tableOf({ data: [{ email: 'a@x.test' }], nextCursor: 'abc' })).toBe('EMAIL\na@x.test\nnextCursor: abc\n');
    expect(tableOf({ data: [], nextCursor: null })).toBe('(none)\n');
  });

  it('prints one object as field and value, nested values as one short line of JSON', () => {
    const long = { text: 'x'.repeat(100) };
    const printed = tableOf({ id: 7, tags: ['a', 'b'], note: 'two\nlines', long });
    const lines = printed.trimEnd().split('\n');
    expect(lines[0]).toBe('FIELD  VALUE');
    expect(lines[1]).toBe('id     7');
    expect(lines[2]).toBe('tags   ["a","b"]');
    expect(lines[3]).toBe('note   two lines');
    expect(lines[4]!.endsWith('…')).toBe(true);
    expect(lines[4]!.length).toBeLessThanOrEqual('long   '.length + 60);
  });
});
