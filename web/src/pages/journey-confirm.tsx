// A confirm alert dialog (APG, focus on Cancel) whose action is a primary button: activating or
// pausing a journey is consequential (mail starts or stops) but not destructive, and the shared
// ConfirmDialog's button is the danger one.
import { AlertDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';

export function JourneyConfirm({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pending,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-32px)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-line bg-bg p-5 shadow-xl">
          <AlertDialog.Title className="text-[16px] leading-6 font-semibold break-words">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-1 text-[13px] text-fg-2">{description}</div>
          </AlertDialog.Description>
          {error ? (
            <p role="alert" className="mt-3 text-[13px] text-[var(--tone-danger)]">
              {error}
            </p>
          ) : null}
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <Button variant="primary" disabled={pending} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
