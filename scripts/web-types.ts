// Writes web/src/api/schema.d.ts (the dashboard's API types) from openapi.json with openapi-typescript,
// or with --check fails when the committed file differs from what openapi.json generates (drift).
// `npm run openapi` writes it too, with openapi.json.
import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.join(import.meta.dirname, '..');
export const WEB_TYPES_FILE = path.join(root, 'web', 'src', 'api', 'schema.d.ts');

const header = '// Generated from openapi.json by `npm run web:types` (openapi-typescript). Do not edit.\n\n';

/** The types file for an OpenAPI document (its JSON text). */
export async function webTypes(document: string): Promise<string> {
  return header + astToString(await openapiTS(JSON.parse(document), { alphabetize: false }));
}

if (import.meta.main) {
  // --source FILE: another copy of the document (e.g. the committed one, while openapi.json has edits).
  const sourceFlag = process.argv.indexOf('--source');
  const source = sourceFlag > 0 ? path.resolve(process.argv[sourceFlag + 1]!) : path.join(root, 'openapi.json');
  const generated = await webTypes(fs.readFileSync(source, 'utf8'));
  if (process.argv.includes('--check')) {
    const committed = fs.existsSync(WEB_TYPES_FILE) ? fs.readFileSync(WEB_TYPES_FILE, 'utf8') : '';
    if (committed !== generated) {
      process.stderr.write('web/src/api/schema.d.ts is out of date with openapi.json: run `npm run web:types`.\n');
      process.exit(1);
    }
    process.stdout.write('web/src/api/schema.d.ts is up to date with openapi.json\n');
  } else {
    fs.writeFileSync(WEB_TYPES_FILE, generated);
    process.stdout.write(`wrote ${path.relative(process.cwd(), WEB_TYPES_FILE)}\n`);
  }
}
