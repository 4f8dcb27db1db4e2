// Loading, empty and error states: errors show the API's message and code with Retry, never a blank page.
import type { ReactNode } from 'react';
import { ApiFailure } from '../api/client.ts';
import { Button } from './button.tsx';

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const failure = error instanceof ApiFailure ? error : null;
  return (
    <div role="alert" className="rounded-lg border border-line bg-surface p-4 text-[13px]">
      <p className="font-medium">{failure?.message ?? (error instanceof Error ? error.message : 'Something failed')}</p>
      {failure ? (
        <p className="mt-1 font-mono text-[12px] text-fg-2">
          {failure.status} {failure.code}
        </p>
      ) : null}
      {onRetry ? (
        <Button className="mt-3" onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-line p-8 text-center">
      <p className="text-[14px] font-medium">{title}</p>
      {children ? <div className="mx-auto mt-1 max-w-prose text-[13px] text-fg-2">{children}</div> : null}
      {action ? <div className="mt-4 flex justify-center">{action}</div> : null}
    </div>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="py-8 text-[13px] text-fg-2">
      {label}…
    </div>
  );
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiFailure && (error.status === 404 || error.status === 403);
}
