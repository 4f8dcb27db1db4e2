// Import cycles in src/ (part of `npm run check`), at two levels. Between modules: load order then
// decides which module sees the other half-initialised. Between areas (the top-level folders of
// src/, each root file its own): an area that imports another which imports it back has no layering
// left (GUIDE.md: areas build on platform/, db/, queue/, adapters/, not the other way round).
// `import type` and `export type` count too: erased at run time, they still tie the layers together
// (issue 42). Prints each cycle as a path; exits 1 when any.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// `import … from './x.ts'`, `export … from './x.ts'`, `import './x.ts'`, across lines, type-only forms included.
const STATEMENT = /^\s*(?:import|export)\s+[^'";]*?\s*(?:from\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm;

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(STATEMENT)].map((match) => resolve(dirname(file), match[1]!));
}

/** Tarjan's strongly connected components. */
function components(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One cycle through the component, as a path from its first module back to it (breadth-first, shortest). */
function cycleThrough(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

const graph = new Map<string, string[]>();
for (const file of sourceFiles(SRC)) graph.set(file, imports(file));

const moduleName = (file: string) => relative(SRC, file);
const areaOf = (file: string) => moduleName(file).split('/')[0]!;

// Areas, with one module edge kept as the witness of each area edge.
const areas = new Map<string, string[]>();
const witness = new Map<string, string>();
for (const [file, targets] of graph) {
  const from = areaOf(file);
  if (!areas.has(from)) areas.set(from, []);
  for (const target of targets) {
    const to = areaOf(target);
    if (to === from || !graph.has(target)) continue;
    if (!areas.get(from)!.includes(to)) areas.get(from)!.push(to);
    if (!witness.has(`${from} ${to}`))
      witness.set(`${from} ${to}`, `${moduleName(file)} imports ${moduleName(target)}`);
  }
}

let found = 0;
const report = (text: string) => {
  console.log(text);
  found++;
};
for (const component of components(graph)) {
  const path = cycleThrough(component, graph).map(moduleName);
  report(`module cycle (${component.length} modules tangled): ${path.join(' -> ')}`);
}
for (const component of components(areas)) {
  const path = cycleThrough(component, areas);
  const steps = path.slice(1).map((to, i) => `${path[i]} -> ${to} (${witness.get(`${path[i]} ${to}`)})`);
  const names = [...component].sort().join(', ');
  report(`area cycle (${component.length} areas tangled: ${names}):\n  ${steps.join('\n  ')}`);
}
if (found > 0) {
  console.log(`${found} import cycle(s) in src/: move the shared type or function down, or build the part above both.`);
  process.exit(1);
}
console.log('no import cycles in src/');
