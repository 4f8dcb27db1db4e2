// Writes openapi.json from the route schemas and the event table of docs/webhooks.md from the event
// catalogue, or with --check fails when either committed file differs from what the code generates
// (CI's drift check).
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { buildDeps } from '../src/build-deps.ts';
import { eventTableMarkdown } from '../src/webhooks/index.ts';
import { WEB_TYPES_FILE, webTypes } from './web-types.ts';

const file = path.join(import.meta.dirname, '..', 'openapi.json');
const webhooksDoc = path.join(import.meta.dirname, '..', 'docs', 'webhooks.md');
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

/** docs/webhooks.md with the section between its event-types markers regenerated. */
function withEventTable(doc: string): string {
  const start = doc.match(/<!-- event-types:start[^>]*-->\n/);
  const end = doc.indexOf('<!-- event-types:end -->');
  if (!start || end < 0) throw new Error('docs/webhooks.md: the event-types markers are missing');
  const from = start.index! + start[0].length;
  return `${doc.slice(0, from)}${eventTableMarkdown()}\n${doc.slice(end)}`;
}
const committedDoc = fs.readFileSync(webhooksDoc, 'utf8');
const generatedDoc = withEventTable(committedDoc);

if (process.argv.includes('--check')) {
  const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (committed !== generated) {
    process.stderr.write('openapi.json is out of date with the route schemas: run `npm run openapi` and commit it.\n');
    process.exit(1);
  }
  if (committedDoc !== generatedDoc) {
    process.stderr.write(
      'docs/webhooks.md: the event table is out of date with the catalogue: run `npm run openapi`.\n',
    );
    process.exit(1);
  }
  process.stdout.write('openapi.json and the event table of docs/webhooks.md are up to date\n');
} else {
  fs.writeFileSync(file, generated);
  fs.writeFileSync(webhooksDoc, generatedDoc);
  // The dashboard's client types follow the document (their drift is checked by scripts/web-types.ts).
  fs.writeFileSync(WEB_TYPES_FILE, await webTypes(generated));
  process.stdout.write(
    `wrote ${path.relative(process.cwd(), file)}, ${path.relative(process.cwd(), webhooksDoc)} and ${path.relative(process.cwd(), WEB_TYPES_FILE)}\n`,
  );
}
