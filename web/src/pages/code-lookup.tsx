// Opening a code by its id: the form that puts a pasted id in the URL (?id=), and the code read by
// itself when the page of the log shown does not hold it (an older code, or one the filters hide).
// An unknown id and another team's answer alike: not in this team.
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../ui/button.tsx';
import { inputClass } from '../ui/dialog.tsx';
import { ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { verificationQuery } from './code-query.ts';
import { CodeTable } from './code-table.tsx';

export function CodeLookUpForm({ onLookUp }: { onLookUp: (id: string) => void }) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) onLookUp(typed.trim());
  };
  return (
    <form role="search" aria-label="Look up a code" onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div className="w-full sm:w-80">
        <label htmlFor={inputId} className="mb-1 block text-[13px] font-medium">
          Code id
        </label>
        <input
          id={inputId}
          className={`${inputClass} font-mono`}
          placeholder="ver_…"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </div>
      <Button type="submit" disabled={typed.trim() === ''}>
        Look up
      </Button>
    </form>
  );
}

/** The code `id` read alone, open, in a table of its own above the log. */
export function LookedUpCode({ id, onClose }: { id: string; onClose: () => void }) {
  const looked = useQuery(verificationQuery(id));
  if (looked.isPending) return <Loading label="Looking up the code" />;
  if (looked.isError)
    return isNotFound(looked.error) ? (
      <p role="alert" className="mb-4 text-[13px] text-[var(--tone-danger)]">
        No code with the id <span className="font-mono">{id}</span> exists in this team.
      </p>
    ) : (
      <div className="mb-4">
        <ErrorState error={looked.error} onRetry={() => void looked.refetch()} />
      </div>
    );
  return (
    <div className="mb-4">
      <CodeTable label="Looked-up code" rows={[looked.data]} open={id} onToggle={onClose} />
    </div>
  );
}
