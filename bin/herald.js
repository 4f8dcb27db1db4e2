#!/usr/bin/env node
// Herald runs its TypeScript sources directly on Node.js 24 or later (no build step).
import module from 'node:module';
import path from 'node:path';

const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    `herald needs Node.js 24 or later (this is ${process.version}); run it through npm: npm run herald -- <command>\n`,
  );
  process.exit(2);
}
// Node's compile cache, beside the installed packages (node_modules/.cache, as other tools keep
// theirs): a later start does not strip and compile every module again. Where that folder cannot be
// written, Node goes on without it.
module.enableCompileCache(path.join(import.meta.dirname, '../node_modules/.cache/herald-compile'));
await import('../src/main.ts');
