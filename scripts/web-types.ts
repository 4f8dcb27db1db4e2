// Writes web/src/api/schema.d.ts (the dashboard's API types) from openapi.json with openapi-typescript,
// or with --check fails when the committed file differs from what openapi.json generates (drift).
import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.join(import.meta.dirname, '..');
// --source FILE: another copy of the document (e.g. the committed one, while openapi.json has edits).
const sourceFlag = process.argv.indexOf('--source');
const source = sourceFlag > 0 ? path.resolve(process.argv[sourceFlag + 1]!) : path.join(root, 'openapi.json');
const target = path.join(root, 'web', 'src', 'api', 'schema.d.ts');

const header = '// Generated from openapi.json by `npm run web:types` (openapi-typescript). Do not edit.\n\n';
const ast = await openapiTS(JSON.parse(fs.readFileSync(source, 'utf8')), { alphabetize: false });
const generated = header + astToString(ast);

if (process.argv.includes('--check')) {
  const committed = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (committed !== generated) {
    process.stderr.write('web/src/api/schema.d.ts is out of date with openapi.json: run `npm run web:types`.\n');
    process.exit(1);
  }
  process.stdout.write('web/src/api/schema.d.ts is up to date with openapi.json\n');
} else {
  fs.writeFileSync(target, generated);
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
}
