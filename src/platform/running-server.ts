// <data dir>/server.json: where the process holding the embedded data directory serves its HTTP
// API, so that `herald admin` on the same machine reaches it without being told PORT.
import fs from 'node:fs';
import path from 'node:path';

interface RunningServer {
  pid: number;
  url: string;
}

export function runningServerFile(dataDir: string): string {
  return path.join(dataDir, 'server.json');
}

/** The URL that reaches a server listening on host:port from this machine (any-address: loopback). */
export function localServerUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function read(file: string): RunningServer | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RunningServer>;
    return typeof parsed.pid === 'number' && typeof parsed.url === 'string'
      ? { pid: parsed.pid, url: parsed.url }
      : null;
  } catch {
    return null;
  }
}

/** Records this process's URL (written aside, then renamed: never read half-written); returns the remover. */
export function recordRunningServer(dataDir: string, url: string): () => void {
  const file = runningServerFile(dataDir);
  const aside = `${file}.${process.pid}`;
  fs.writeFileSync(aside, `${JSON.stringify({ pid: process.pid, url })}\n`, { mode: 0o600 });
  fs.renameSync(aside, file);
  return () => {
    if (read(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
}

/** The URL recorded by process `pid` (the data directory's holder); null when it recorded none. */
export function runningServerUrl(dataDir: string, pid: number): string | null {
  const recorded = read(runningServerFile(dataDir));
  return recorded !== null && recorded.pid === pid ? recorded.url : null;
}
