// Every environment variable the configuration names (src/config.ts and the files of src/config/),
// read from the source, for tests that check docs and deployment files name only real variables.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './spawn.ts';

const configFiles = [
  path.join(REPO_ROOT, 'src/config.ts'),
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'src/config'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(REPO_ROOT, 'src/config', file)),
];

export const configVariables: ReadonlySet<string> = new Set(
  configFiles.flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)].map((m) => m[1]!),
  ),
);
