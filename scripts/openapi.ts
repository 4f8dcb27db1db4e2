// Writes openapi.json from the route schemas, or with --check fails when the committed file
// differs from what the code generates (CI's drift check).
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { buildDeps } from '../src/deps.ts';

const file = path.join(import.meta.dirname, '..', 'openapi.json');
// Generated with the default configuration so that the document does not depend on the environment.
const config = {
  ...loadConfig({}),
  secret: 'openapi-generation-only-0123456789abcdef',
  adminToken: 'openapi-generation-only',
};
const database = await connectDatabase({ databaseUrl: null, dataDir: null });
const deps = await buildDeps(config, { database, logger: pino({ level: 'silent' }) });
const app = await buildApp(deps);
await app.ready();
const generated = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
await deps.close();
await database.close();

if (process.argv.includes('--check')) {
  const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (committed !== generated) {
    process.stderr.write('openapi.json is out of date with the route schemas: run `npm run openapi` and commit it.\n');
    process.exit(1);
  }
  process.stdout.write('openapi.json is up to date\n');
} else {
  fs.writeFileSync(file, generated);
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
}
