// The ports a command listens on: checked free on HOST before anything else happens (no data
// directory opened, no migration, no first team), and every listen failure, then or later, turned
// into one line that names the variable to change instead of a stack trace.
import net from 'node:net';
import type { Config } from './config.ts';
import { StartupProblem } from './startup-problem.ts';

export type ServingCommand = 'start' | 'api' | 'worker' | 'smtp';

export interface Listener {
  /** The variable that sets the port, named in the message. */
  variable: 'PORT' | 'HERALD_SMTP_PORT' | 'HERALD_SUBMISSION_PORT' | 'HERALD_SUBMISSIONS_PORT' | 'HERALD_METRICS_PORT';
  port: number;
}

export const mainListener = (config: Config): Listener => ({ variable: 'PORT', port: config.port });

/** Every TCP port `command` binds on HOST. */
export function listenersOf(command: ServingCommand, config: Config): Listener[] {
  const listeners = [mainListener(config)];
  if ((command === 'start' || command === 'smtp') && config.smtpPort !== 0) {
    listeners.push({ variable: 'HERALD_SMTP_PORT', port: config.smtpPort });
  }
  if (command === 'start' || command === 'smtp') {
    const { port, tlsPort } = config.submission;
    if (port !== 0) listeners.push({ variable: 'HERALD_SUBMISSION_PORT', port });
    if (tlsPort !== 0) listeners.push({ variable: 'HERALD_SUBMISSIONS_PORT', port: tlsPort });
  }
  if (config.metricsPort !== null) listeners.push({ variable: 'HERALD_METRICS_PORT', port: config.metricsPort });
  return listeners;
}

/** Binds each port and lets it go again; throws the StartupProblem of the first that cannot be bound. */
export async function checkPortsFree(command: ServingCommand, config: Config): Promise<void> {
  const listeners = listenersOf(command, config);
  for (const [i, listener] of listeners.entries()) {
    const same = listeners.slice(0, i).find((earlier) => earlier.port === listener.port);
    if (same) {
      throw new StartupProblem(
        `${listener.variable} ${listener.port} is also ${same.variable}; set ${listener.variable} to another port`,
        2,
      );
    }
  }
  for (const listener of listeners)
    await listenOrExplain(config.host, listener, () => bindAndRelease(config.host, listener.port));
}

function bindAndRelease(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

/** Runs `listen`; a failure the operator must fix becomes a StartupProblem, anything else is rethrown. */
export async function listenOrExplain<T>(host: string, listener: Listener, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    throw explained(error, host, listener);
  }
}

function explained(error: unknown, host: string, { variable, port }: Listener): unknown {
  const problem = (message: string) => new StartupProblem(message, 2, error);
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return problem(`${variable} ${port} is in use; set ${variable}`);
    case 'EACCES':
      return problem(`${variable} ${port} needs privileges this process does not have; set ${variable}`);
    case 'EADDRNOTAVAIL':
      return problem(`HOST ${host} is not an address of this machine; set HOST`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return problem(`HOST ${host} does not resolve to an address; set HOST`);
    default:
      return error;
  }
}
