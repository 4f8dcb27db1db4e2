// Dialogs (Radix, APG): a form dialog (⌘Enter submits), a confirm alert dialog with focus on Cancel
// (type-the-name for the irreversible ones), and the "copy it now" dialog for a secret shown once.
import { AlertDialog, Dialog as RadixDialog } from 'radix-ui';
import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { ApiFailure } from '../api/client.ts';
import { Button } from './button.tsx';
import { MonoBlock } from './mono-block.tsx';

const overlay = 'fixed inset-0 z-40 bg-black/40';
const panel =
  'fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-32px)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-line bg-bg p-5 shadow-xl';
export const inputClass =
  'h-8 w-full rounded-md border border-control bg-bg px-2 text-[13px] placeholder:text-fg-2 pointer-coarse:h-10';

export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  pending,
  error,
  onSubmit,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  submitLabel: string;
  pending?: boolean;
  /** The error no field claims, shown in the form alert. */
  error?: string | null;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const metaEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      onSubmit();
    }
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content className={panel} aria-describedby={undefined} onKeyDown={metaEnter}>
          <RadixDialog.Title className="text-[16px] leading-6 font-semibold">{title}</RadixDialog.Title>
          {description ? <p className="mt-1 text-[13px] text-fg-2">{description}</p> : null}
          <form onSubmit={submit} noValidate className="mt-4 space-y-4">
            {children}
            {error ? (
              <p role="alert" className="text-[13px] text-[var(--tone-danger)]">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <RadixDialog.Close asChild>
                <Button>Cancel</Button>
              </RadixDialog.Close>
              <Button type="submit" variant="primary" disabled={pending}>
                {submitLabel}
              </Button>
            </div>
          </form>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A labelled field with its API error beside it (aria-describedby). */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-[13px] font-medium">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint ? (
        <p id={hintId} className="mt-1 text-[12px] text-fg-2">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-[13px] text-[var(--tone-danger)]">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The API's 400 answers name the field first ("url: url must use https…"): split them. */
export function splitFieldError(error: unknown, fields: string[]): { field?: string; message: string } | null {
  if (!error) return null;
  const message = error instanceof Error ? error.message : 'The request failed';
  if (error instanceof ApiFailure && error.status === 400) {
    const match = /^([A-Za-z][\w.]*):\s*(.+)$/s.exec(message);
    if (match && fields.includes(match[1]!.split('.')[0]!))
      return { field: match[1]!.split('.')[0]!, message: match[2]! };
  }
  return { message };
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  typeToConfirm,
  tone = 'danger',
  pending,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** For the irreversible ones: the name to type before the button works. */
  typeToConfirm?: string;
  /** danger (default) for what destroys; primary for what is consequential but undoable (a journey's activation). */
  tone?: 'danger' | 'primary';
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
}) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const ready = !typeToConfirm || typed.trim() === typeToConfirm;
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped('');
        onOpenChange(next);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={panel}>
          <AlertDialog.Title className="text-[16px] leading-6 font-semibold break-words">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-1 text-[13px] text-fg-2">{description}</div>
          </AlertDialog.Description>
          {typeToConfirm ? (
            <div className="mt-4">
              <label htmlFor={inputId} className="mb-1 block text-[13px]">
                Type <span className="font-mono break-all">{typeToConfirm}</span> to confirm
              </label>
              <input
                id={inputId}
                className={inputClass}
                value={typed}
                autoComplete="off"
                onChange={(e) => setTyped(e.target.value)}
              />
            </div>
          ) : null}
          {error ? (
            <p role="alert" className="mt-3 text-[13px] text-[var(--tone-danger)]">
              {error}
            </p>
          ) : null}
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <Button variant={tone} disabled={!ready || pending} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** A secret or key shown once: "copy it now", with its copy button and anything to go with it. */
export function SecretDialog({
  title,
  secret,
  what,
  onClose,
  children,
}: {
  title: string;
  secret: string | null;
  what: string;
  onClose: () => void;
  children?: ReactNode;
}) {
  return (
    <RadixDialog.Root open={secret !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content className={panel}>
          <RadixDialog.Title className="text-[16px] leading-6 font-semibold">{title}</RadixDialog.Title>
          <RadixDialog.Description className="mt-1 text-[13px] text-fg-2">
            Copy it now: Herald keeps only a hash and will not show this {what} again.
          </RadixDialog.Description>
          <div className="mt-4 space-y-4">
            <MonoBlock text={secret ?? ''} copyLabel={`Copy ${what}`} />
            {children}
          </div>
          <div className="mt-5 flex justify-end">
            <RadixDialog.Close asChild>
              <Button variant="primary">Done</Button>
            </RadixDialog.Close>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
