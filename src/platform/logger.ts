// The process logger: pino, with the authorization headers redacted. JSON lines when the output is
// a file, a pipe or a log collector; readable lines (log-lines.ts) when a person watches a terminal.
import pino, { type LevelWithSilent, type Logger } from 'pino';
import { formatLogLine } from './log-lines.ts';

/** Where the logger writes: process.stdout, or process.stderr for a command whose stdout is its answer. */
export interface LogOutput {
  fd: number;
  isTTY?: boolean;
  write(text: string): unknown;
}

export function createLogger(config: { logLevel: LevelWithSilent }, output: LogOutput = process.stdout): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-admin-token"]'], censor: '[redacted]' },
  };
  if (output.isTTY === true) {
    const colours = (process.env.NO_COLOR ?? '') === ''; // https://no-color.org
    return pino(options, { write: (line: string) => output.write(formatLogLine(line, colours)) });
  }
  return output.fd === 1 ? pino(options) : pino(options, pino.destination(output.fd));
}
