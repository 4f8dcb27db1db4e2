// smtp-server's own log lines, forwarded to pino, and its per-command entry used to count commands.
import type { Logger } from 'pino';

/**
 * smtp-server logs through a bunyan-style logger: its entries go to pino one level down (it logs
 * every connection at info), and its per-command entry ({tnx: 'command', cid}) is where commands are
 * counted, because smtp-server has no hook that sees every command (NOOP, RSET, HELP...).
 */
export function smtpServerLogger(logger: Logger, onCommand: (sessionId: string) => void) {
  const forward =
    (level: 'trace' | 'debug' | 'warn') =>
    (entry: Record<string, unknown>, message?: string, ...args: unknown[]) => {
      if (entry.tnx === 'command' && typeof entry.cid === 'string') onCommand(entry.cid);
      logger[level](entry, message, ...args);
    };
  return {
    trace: forward('trace'),
    debug: forward('trace'),
    info: forward('debug'),
    warn: forward('debug'),
    error: forward('debug'),
    fatal: forward('warn'),
  };
}
