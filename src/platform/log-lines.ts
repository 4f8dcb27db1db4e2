// pino's JSON line as a person reads it on a terminal: time, level, message, then key=value for
// the rest. Built in rather than pino-pretty (not a dependency); pino's convention is the same:
// pretty for a person at a terminal, JSON lines for everything that reads logs by machine.

const LEVELS: Record<number, { name: string; colour: string }> = {
  10: { name: 'TRACE', colour: '90' },
  20: { name: 'DEBUG', colour: '34' },
  30: { name: 'INFO', colour: '32' },
  40: { name: 'WARN', colour: '33' },
  50: { name: 'ERROR', colour: '31' },
  60: { name: 'FATAL', colour: '35' },
};

/** Fields every line carries that say nothing to a person at the terminal of that very process. */
const OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

interface ErrorFields {
  type?: string;
  message?: string;
  stack?: string;
}

/** One pino JSON line (with or without its newline) as text; anything not JSON passes through. */
export function formatLogLine(line: string, colours: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level), colour: '0' };
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const name = level.name.padEnd(5);
  const parts = [time, colours ? `\x1b[${level.colour}m${name}\x1b[0m` : name, String(entry.msg ?? '')];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (OMITTED.has(key) || value === undefined) continue;
    if (key === 'err' && typeof value === 'object' && value !== null) {
      const err = value as ErrorFields;
      parts.push(`err=${quoted(`${err.type ?? 'Error'}: ${err.message ?? ''}`)}`);
      if (err.stack) stack = `${err.stack.split('\n').slice(1).join('\n')}\n`;
      continue;
    }
    parts.push(...fields(key, value));
  }
  return `${parts.filter((part) => part !== '').join(' ')}\n${stack}`;
}

/** key=value, with one level of nested objects spelled out as parent.child=value. */
function fields(key: string, value: unknown): string[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([name, inner]) => `${key}.${name}=${quoted(inner)}`);
  }
  return [`${key}=${quoted(value)}`];
}

function quoted(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}
