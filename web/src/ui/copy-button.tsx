import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from './cn.ts';

/** A copy button named for what it copies ("Copy email id"), with a polite "Copied". */
export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex size-7 shrink-0 items-center justify-center rounded-md text-fg-2 hover:bg-muted hover:text-fg',
        className,
      )}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? <Check aria-hidden="true" size={14} /> : <Copy aria-hidden="true" size={14} />}
      <span role="status" aria-live="polite" className="sr-only">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}

/** `em_8f3a…c21d`: ids shortened in the middle, the whole id in the title and the copy. */
export function middleTruncate(id: string, keep = 6): string {
  return id.length <= keep * 2 + 1 ? id : `${id.slice(0, keep)}…${id.slice(-keep)}`;
}

export function CopyableId({ id, what }: { id: string; what: string }) {
  return (
    <span className="inline-flex items-center gap-0.5">
      <code className="font-mono text-[12px] text-fg-2" title={id}>
        {middleTruncate(id)}
      </code>
      <CopyButton value={id} label={`Copy ${what} id`} />
    </span>
  );
}
