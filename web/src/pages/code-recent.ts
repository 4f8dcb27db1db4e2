// The code log's ids, per team, in this browser. The API has no list of one-time codes (only
// GET /v1/verify/{id}), so the log is the codes sent from this dashboard and those looked up by id;
// every row is still read from the API. At most 25, newest first.
import { useSyncExternalStore } from 'react';

const LIMIT = 25;
const listeners = new Set<() => void>();
const snapshots = new Map<number, string[]>();

const storageKey = (teamId: number) => `herald-codes-${teamId}`;

function read(teamId: number): string[] {
  const cached = snapshots.get(teamId);
  if (cached) return cached;
  let ids: string[] = [];
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(teamId)) ?? '[]');
    if (Array.isArray(parsed)) ids = parsed.filter((id): id is string => typeof id === 'string').slice(0, LIMIT);
  } catch {
    ids = [];
  }
  snapshots.set(teamId, ids);
  return ids;
}

function write(teamId: number, ids: string[]): void {
  snapshots.set(teamId, ids);
  try {
    localStorage.setItem(storageKey(teamId), JSON.stringify(ids));
  } catch {
    // Storage full or refused: the log still holds them until the page is left.
  }
  for (const listener of listeners) listener();
}

export function rememberCode(teamId: number, id: string): void {
  const ids = read(teamId);
  if (ids[0] === id) return;
  write(teamId, [id, ...ids.filter((other) => other !== id)].slice(0, LIMIT));
}

export function forgetCode(teamId: number, id: string): void {
  const ids = read(teamId);
  if (ids.includes(id))
    write(
      teamId,
      ids.filter((other) => other !== id),
    );
}

export function useRecentCodes(teamId: number): string[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => read(teamId),
  );
}
