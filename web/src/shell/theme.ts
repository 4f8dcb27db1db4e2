// System / Light / Dark, stored locally; index.html's inline script applies it before paint.
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const listeners = new Set<() => void>();

function stored(): ThemeChoice {
  const value = localStorage.getItem('herald-theme');
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') localStorage.removeItem('herald-theme');
  else localStorage.setItem('herald-theme', choice);
  const dark = choice === 'dark' || (choice === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  for (const listener of listeners) listener();
}

export function useTheme(): ThemeChoice {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, stored);
}
