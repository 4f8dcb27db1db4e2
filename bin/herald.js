#!/usr/bin/env node
// Herald runs its TypeScript sources directly on Node.js 24 or later (no build step).
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    `herald needs Node.js 24 or later (this is ${process.version}); run it through npm: npm run herald -- <command>\n`,
  );
  process.exit(2);
}
await import('../src/main.ts');
