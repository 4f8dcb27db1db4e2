// The browser and serving tests need web/dist: `npm install` builds it; a tree changed since (or
// never installed) is built here once, in the same way (skipped when the sources are unchanged).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..', '..', '..');
let built = false;

export function ensureDashboardBuilt(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-web.js')], { cwd: root, stdio: 'pipe' });
  built = true;
}
