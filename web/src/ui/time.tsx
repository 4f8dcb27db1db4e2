// Times relative under 24 h ("3 min ago"), then absolute ("Nov 29, 14:03"); the title gives local
// time with its zone and the UTC ISO. Local or UTC as the user menu chose; Intl only.
import { useSyncExternalStore } from 'react';

type Zone = 'local' | 'utc';
const listeners = new Set<() => void>();
let zone: Zone = localStorage.getItem('herald-zone') === 'utc' ? 'utc' : 'local';

export function setTimeZonePreference(next: Zone): void {
  zone = next;
  localStorage.setItem('herald-zone', next);
  for (const listener of listeners) listener();
}

export function useTimeZonePreference(): Zone {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => zone,
  );
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });

/** One formatter per set of options: making an Intl.DateTimeFormat costs far more than formatting with one (a table of 50 times made 100). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let made = formatters.get(key);
  if (!made) formatters.set(key, (made = new Intl.DateTimeFormat('en-US', options)));
  return made;
}

export function formatAbsolute(date: Date, z: Zone, withSeconds = false): string {
  return formatter({
    month: 'short',
    day: 'numeric',
    ...(date.getFullYear() !== new Date().getFullYear() ? { year: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZone: z === 'utc' ? 'UTC' : undefined,
  }).format(date);
}

export function formatRelative(date: Date, now = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  return relative.format(Math.round(seconds / 3600), 'hour');
}

function fullTitle(date: Date): string {
  const local = formatter({ dateStyle: 'full', timeStyle: 'long' }).format(date);
  return `${local}\n${date.toISOString()}`;
}

export function Time({ value, mode = 'auto' }: { value: string | null | undefined; mode?: 'auto' | 'absolute' }) {
  const z = useTimeZonePreference();
  if (!value) return <span className="text-fg-2">—</span>;
  const date = new Date(value);
  const recent = Math.abs(Date.now() - date.getTime()) < 24 * 3600_000;
  const text = mode === 'auto' && recent ? formatRelative(date) : formatAbsolute(date, z, mode === 'absolute');
  return (
    <time dateTime={date.toISOString()} title={fullTitle(date)} className="tabular whitespace-nowrap">
      {text}
      {mode === 'absolute' && z === 'utc' ? ' UTC' : ''}
    </time>
  );
}
