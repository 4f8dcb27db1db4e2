// What the deployment file tests share: the checkout's files, package.json, the commands the CLI
// accepts, and the variables an operator must set for compose.
import fs from 'node:fs';
import path from 'node:path';

export const root = path.join(import.meta.dirname, '..', '..');
export const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
export const packageJson = JSON.parse(read('package.json')) as {
  bin: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};

/** The commands `herald` accepts, read from src/main.ts's dispatch. */
export const cliCommands = new Set([...read('src/main.ts').matchAll(/case '([a-z]+)':/g)].map((m) => m[1]!));

export const operatorEnv = { HERALD_SECRET: 'x'.repeat(40), HERALD_ADMIN_TOKEN: 'y'.repeat(20) };
