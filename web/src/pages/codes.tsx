// Codes: the one-time code log. The API reads codes one at a time (GET /v1/verify/{id}) and lists
// none, so the log holds the codes sent from this dashboard and those looked up by id here (the open
// one is ?id= in the URL, so a pasted link opens it), the latest added first; each row is read from the API.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useSignedIn } from '../api/session.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { inputClass } from '../ui/dialog.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { forgetCode, rememberCode, useRecentCodes } from './code-recent.ts';
import { SendTestCode } from './code-send.tsx';
import { CodeTable, verificationQuery } from './code-table.tsx';

function LookUp({ onLookUp }: { onLookUp: (id: string) => void }) {
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

export default function Codes() {
  const session = useSignedIn();
  const teamId = session.team.id;
  const ids = useRecentCodes(teamId);
  const [open, setOpen] = useUrlParam('id');
  const [sending, setSending] = useState(false);
  // The id in the URL is read first; once the API knows it for this team it joins the log.
  const known = open !== null && ids.includes(open);
  const looked = useQuery({ ...verificationQuery(open ?? ''), enabled: open !== null && !known });
  useEffect(() => {
    if (open && !known && looked.data?.id === open) rememberCode(teamId, open);
  }, [open, known, looked.data, teamId]);
  const onMissing = useCallback((id: string) => forgetCode(teamId, id), [teamId]);

  const sendButton = (
    <Button variant="primary" onClick={() => setSending(true)}>
      Send test code
    </Button>
  );
  const curl = `${curlFor(session.instance.publicUrl, '/api/v1/verify/send', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '{"to":"+14155550123","channel":"sms","appName":"Acme"}'`;
  const lookingUp = open !== null && !known;

  return (
    <>
      <title>Codes · Herald</title>
      <PageHeader
        title="Codes"
        facts={<span>One-time codes sent from this dashboard or looked up here, the latest added first.</span>}
        actions={sendButton}
      />
      <div className="mb-4">
        <LookUp onLookUp={(id) => setOpen(id)} />
      </div>
      {lookingUp ? (
        looked.isPending ? (
          <Loading label="Looking up the code" />
        ) : looked.isError ? (
          isNotFound(looked.error) ? (
            <p role="alert" className="mb-4 text-[13px] text-[var(--tone-danger)]">
              No code with the id <span className="font-mono">{open}</span> exists in this team.
            </p>
          ) : (
            <div className="mb-4">
              <ErrorState error={looked.error} onRetry={() => void looked.refetch()} />
            </div>
          )
        ) : null
      ) : null}
      {ids.length === 0 ? (
        <EmptyState title="No codes here yet" action={sendButton}>
          <p>
            Send a test code, or paste the id of a code your application sent (<code>ver_…</code>) to read its status,
            risk level and reasons.
          </p>
          <div className="mt-3 text-left">
            <MonoBlock copyLabel="Copy curl" text={curl} />
          </div>
        </EmptyState>
      ) : (
        <CodeTable ids={ids} open={open} onToggle={(id) => setOpen(open === id ? null : id)} onMissing={onMissing} />
      )}
      <SendTestCode open={sending} onOpenChange={setSending} onSent={(id) => setOpen(id)} />
    </>
  );
}
