// herald start|api|worker|smtp|migrate|admin (operator.md).
import { runAdminCli } from './admin-cli.ts';
import { migrate } from './db/migrate.ts';
import { loadConfigOrExit, migrateAndBootstrap, openRuntime, reportStartupFailure, type Runtime } from './runtime.ts';
import { runWorkers, serveApi, serveSmtp, serveWorker, startInboundSmtp, type Service } from './services.ts';

const USAGE = `Usage: herald <command>

  start     apply migrations, then run the API, admin API, workers and SMTP listener in one process
  api       run the public and admin HTTP APIs only
  worker    run the background workers only
  smtp      run the inbound SMTP listener only
  migrate   apply pending migrations and exit
  admin     the admin API's operations from the command line (herald admin --help)
`;

function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`herald: ${signal} received, shutting down\n`);
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

async function run(runtime: Runtime, parts: Array<(runtime: Runtime) => Promise<Service>>): Promise<void> {
  const services: Service[] = [];
  for (const start of parts) services.push(await start(runtime));
  onSignals(async () => {
    // Stop taking new work first, then let each part finish what it holds, then close resources.
    for (const service of services.reverse()) await service.stop();
    await runtime.close();
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'admin') {
    process.exitCode = await runAdminCli(rest);
    return;
  }
  if (command === undefined || command === 'help' || command === '--help') {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfigOrExit();
  try {
    switch (command) {
      case 'start': {
        const runtime = await openRuntime(config);
        await migrateAndBootstrap(runtime);
        // The listener last, so that it is stopped first: no mail arrives while the workers wind down.
        await run(runtime, [runWorkers, serveApi, startInboundSmtp]);
        return;
      }
      case 'api':
      case 'worker': {
        const runtime = await openRuntime(config);
        await run(runtime, [command === 'api' ? serveApi : serveWorker]);
        return;
      }
      case 'migrate': {
        const runtime = await openRuntime(config);
        const applied = await migrate(runtime.deps.database);
        process.stdout.write(`${JSON.stringify({ applied })}\n`);
        await runtime.close();
        return;
      }
      case 'smtp': {
        const runtime = await openRuntime(config);
        await run(runtime, [serveSmtp]);
        return;
      }
      default:
        process.stderr.write(`herald: unknown command "${command}"\n\n${USAGE}`);
        process.exitCode = 2;
    }
  } catch (error) {
    reportStartupFailure(error);
  }
}

await main(process.argv.slice(2));
