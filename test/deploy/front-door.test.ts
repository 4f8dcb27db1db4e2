// The README and the docs a newcomer reads first say only what is true of this tree: the two
// commands on top, links that resolve, variables the configuration reads, commands the CLI has, and
// one licence everywhere.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configVariables } from '../support/config-variables.ts';

const root = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');
const frontDoor = ['README.md', 'docs/conventions.md', 'docs/OPERATIONS.md', 'docs/ARCHITECTURE.md'];

describe('README', () => {
  it('starts with the two commands that start and test Herald', () => {
    expect(readme.split('\n').slice(0, 2)).toEqual(['    npm install && npm start', '    npm install && npm test']);
  });

  it('links only to files and headings that exist', () => {
    for (const file of frontDoor) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:/.test(target!)) continue;
        const [relative, anchor] = target!.split('#');
        // `(#heading)` is a heading of the same file.
        const resolved = relative === '' ? path.join(root, file) : path.join(root, path.dirname(file), relative!);
        expect(fs.existsSync(resolved), `${file} -> ${target}`).toBe(true);
        if (anchor) {
          const slugs = [...fs.readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
            m[1]!
              .toLowerCase()
              .replace(/[^a-z0-9 -]/g, '')
              .replace(/ /g, '-'),
          );
          expect(slugs, `${file} -> ${target}`).toContain(anchor);
        }
      }
    }
  });

  it('names only variables the configuration reads and commands the CLI has', () => {
    const variables = new Set(
      [...readme.matchAll(/`((?:HERALD|DATABASE|REDIS)_[A-Z0-9_]*[A-Z0-9])[=`*]/g)].map((m) => m[1]!),
    );
    expect(variables.size).toBeGreaterThan(8);
    for (const variable of variables) {
      if (variable.endsWith('_')) continue;
      expect(configVariables.has(variable), variable).toBe(true);
    }
    const cli = new Set([...read('src/main.ts').matchAll(/case '([a-z]+)':/g)].map((m) => m[1]!));
    cli.add('admin');
    const commands = new Set([...readme.matchAll(/`herald ([a-z]+)/g)].map((m) => m[1]!));
    expect(commands.size).toBeGreaterThan(4);
    for (const command of commands) expect(cli.has(command), command).toBe(true);
  });

  it('states one licence: LICENSE, package.json, the OpenAPI document and the README agree', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n/);
    expect(JSON.parse(read('package.json')).license).toBe('MIT');
    expect(JSON.parse(read('package-lock.json')).packages[''].license).toBe('MIT');
    expect(JSON.parse(read('openapi.json')).info.license.identifier).toBe('MIT');
    expect(readme).toMatch(/MIT licence \(\[LICENSE\]\(LICENSE\)\)/);
  });
});
