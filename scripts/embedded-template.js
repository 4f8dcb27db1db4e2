// Makes the migrated, empty embedded database that new data directories are copied from
// (src/db/embedded-template.ts): run by `npm install` and `npm ci` (postinstall). Plain JavaScript,
// so that on a Node.js older than Herald's (an install without devDependencies) it says so and
// leaves it to a later install; a failure never fails the install (directories are made in place).
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.info(`embedded template: skipped (Node.js ${process.version}; Herald runs on 24 or later)`);
} else {
  try {
    const { performance } = await import('node:perf_hooks');
    const { makeEmbeddedTemplate } = await import('../src/db/connect.ts');
    const started = performance.now();
    const folder = await makeEmbeddedTemplate();
    console.info(
      folder === null
        ? 'embedded template: not made (node_modules/.cache cannot be written); new data directories are made in place'
        : `embedded template: ${folder} (${Math.round(performance.now() - started)} ms)`,
    );
  } catch (error) {
    console.info(`embedded template: not made (${error instanceof Error ? error.message : String(error)})`);
  }
}
