// herald start|api|worker|smtp|migrate|admin (operator.md). Each command loads its own modules when
// it runs: `herald --help` and the admin commands do not pay for the server's.
import type { Runtime } from './runtime.ts';
import type { Service } from './services.ts';

const USAGE = `Usage: herald <command>

  start     apply migrations, then run the API, admin API, workers and SMTP listener in one process
  api       run the public and admin HTTP APIs only
  worker    run the background workers only
  smtp      run the inbound SMTP listener only
  migrate   apply pending migrations and exit
  admin     the admin API's operations from the command line (herald admin --help)
`;

/**
 * SIGTERM and SIGINT stop the process gracefully from the moment its start begins: a signal that
 * arrives while it starts (the API answers before the workers run) is acted on once the start is
 * done. `ready` takes the services in the order they stop: what takes new work first, then what
 * finishes it.
 */
async function stopOnSignals(runtime: Runtime): Promise<{ ready(services: Service[]): void }> {
  const { SHUTDOWN_LIMIT_MS } = await import('./services.ts');
  let started: Service[] | null = null;
  let received: NodeJS.Signals | null = null;
  let stopping = false;
  const stop = (signal: NodeJS.Signals, services: Service[]) => {
    stopping = true;
    process.stderr.write(`herald: ${signal} received, shutting down\n`);
    // Each part's stop has its own bound (services.ts); this one covers closing the database too.
    setTimeout(() => {
      process.stderr.write('herald: shutdown took too long; exiting, work in hand is left to its lease\n');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    const stopAll = async () => {
      for (const service of services) await service.stop();
      await runtime.close();
    };
    stopAll().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    if (started === null) received ??= signal;
    else stop(signal, started);
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return {
    ready(services) {
      started = services;
      if (received !== null) stop(received, services);
    },
  };
}

/** How long each phase of a start took, in ms, the first one counted from the process's start (modules loaded). */
function phaseTimer() {
  const phases: Record<string, number> = { modules: Math.round(performance.now()) };
  let last = performance.now();
  return {
    mark(name: string) {
      const now = performance.now();
      phases[name] = Math.round(now - last);
      last = now;
    },
    done: () => phases,
  };
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === 'admin') {
    const { runAdminCli } = await import('./admin-cli.ts');
    process.exitCode = await runAdminCli(rest, { commandLine: true });
    return;
  }
  if (!['start', 'api', 'worker', 'smtp', 'migrate'].includes(command)) {
    process.stderr.write(`herald: unknown command "${command}"\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  // The configuration first: a bad variable stops the process before the server's modules load.
  const config = (await import('./config.ts')).loadConfigOrExit();
  const { applyMigrations, bootstrapAndGreet, openRuntime, reportStartupFailure } = await import('./runtime.ts');
  const { checkPortsFree } = await import('./listen-ports.ts');
  let runtime: Runtime | undefined;
  try {
    switch (command) {
      case 'start': {
        const phases = phaseTimer();
        await checkPortsFree(command, config);
        runtime = await openRuntime(config);
        const signals = await stopOnSignals(runtime);
        phases.mark('runtime');
        await applyMigrations(runtime);
        phases.mark('migrations');
        // Listening before the first team and its banner: a start that cannot listen creates nothing.
        const { runWorkers, serveApi, startInboundSmtp, startSubmissionService } = await import('./services.ts');
        const api = await serveApi(runtime);
        phases.mark('api');
        const smtp = await startInboundSmtp(runtime);
        const submission = await startSubmissionService(runtime);
        await bootstrapAndGreet(runtime);
        phases.mark('bootstrap');
        const workers = await runWorkers(runtime);
        phases.mark('workers');
        runtime.deps.logger.debug({ phasesMs: phases.done() }, 'started');
        // The SMTP listeners stop first, so that no mail arrives while the workers wind down.
        signals.ready([smtp, submission, api, workers]);
        return;
      }
      case 'api':
      case 'worker':
      case 'smtp': {
        await checkPortsFree(command, config);
        runtime = await openRuntime(config);
        const signals = await stopOnSignals(runtime);
        const { serveApi, serveSmtp, serveWorker } = await import('./services.ts');
        const serveAlone = { api: serveApi, worker: serveWorker, smtp: serveSmtp };
        signals.ready([await serveAlone[command](runtime)]);
        return;
      }
      case 'migrate': {
        runtime = await openRuntime(config);
        const { migrate } = await import('./db/migrate.ts');
        const applied = await migrate(runtime.deps.database);
        process.stdout.write(`${JSON.stringify({ applied })}\n`);
        await runtime.close();
        return;
      }
    }
  } catch (error) {
    // The data directory's lock and the database are let go of before the process ends.
    await runtime?.close().catch(() => {});
    reportStartupFailure(error);
  }
}

await main(process.argv.slice(2));
