// Codes: the team's one-time codes (GET /v1/verify), newest first, 50 a page: status, channel and
// risk filters and the cursor in the URL, the older page prefetched when idle. A row opens in place
// (?id= in the URL, so a pasted link opens it); an id the page shown does not hold is read alone.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { CodeFiltersBar } from './code-filters.tsx';
import { CodeLookUpForm, LookedUpCode } from './code-lookup.tsx';
import { codeFiltersOf, codeListQuery, codeMoving } from './code-query.ts';
import { SendTestCode } from './code-send.tsx';
import { CodeTable } from './code-table.tsx';

export default function Codes() {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = codeFiltersOf(params);
  const { status, channel, risk } = filters;
  const cursor = params.get('cursor') ?? undefined;
  const open = params.get('id');
  const [sending, setSending] = useState(false);
  const list = useQuery({
    ...codeListQuery(filters, cursor),
    placeholderData: keepPreviousData,
    // Read again while an SMS code shown can still change its delivery.
    refetchInterval: (query) => (query.state.data?.data.some(codeMoving) ? 5000 : false),
  });
  const rows = list.data?.data ?? [];
  const next = list.data?.nextCursor ?? null;

  // The older page prefetched when idle, so "Older" is instant (a timer where there is no requestIdleCallback).
  useEffect(() => {
    if (!next) return;
    const prefetch = () => void queryClient.prefetchQuery(codeListQuery({ status, channel, risk }, next));
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(prefetch, 300);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(prefetch);
    return () => cancelIdleCallback(handle);
  }, [next, status, channel, risk, queryClient]);

  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') copy.delete(name);
        else copy.set(name, value);
      }
      return copy;
    });

  const sendButton = (
    <Button variant="primary" onClick={() => setSending(true)}>
      Send test code
    </Button>
  );
  const curl = `${curlFor(session.instance.publicUrl, '/api/v1/verify/send', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '{"to":"+14155550123","channel":"sms","appName":"Acme"}'`;
  const filtered = Boolean(status || channel || risk);
  const settled = !list.isPending && !list.isPlaceholderData && !list.isError;
  // An id this page does not hold (older, filtered out, another team's or none) is read by itself.
  const lookingUp = open !== null && settled && !rows.some((v) => v.id === open);

  return (
    <>
      <title>Codes · Herald</title>
      <PageHeader
        title="Codes"
        facts={<span>The team's one-time codes by email and SMS, newest first.</span>}
        actions={sendButton}
      />
      <div className="mb-4">
        <CodeLookUpForm onLookUp={(id) => update({ id })} />
      </div>
      {lookingUp ? <LookedUpCode id={open} onClose={() => update({ id: null })} /> : null}
      <CodeFiltersBar filters={filters} onChange={(changes) => update({ ...changes, cursor: null })} />
      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.isPending && rows.length === 0 && !cursor ? (
        <EmptyState
          title={filtered ? 'No codes match these filters.' : 'No codes sent yet.'}
          action={filtered ? null : sendButton}
        >
          {filtered ? (
            <p>Try other filters, or clear them.</p>
          ) : (
            <>
              <p>
                Every one-time code the team sends, by email or SMS, appears here with its status, risk level and
                reasons. Send a test code, or send one from your application:
              </p>
              <div className="mt-3 text-left">
                <MonoBlock copyLabel="Copy curl" text={curl} />
              </div>
            </>
          )}
        </EmptyState>
      ) : (
        <CodeTable
          label="Codes"
          rows={rows}
          loading={list.isPending}
          dimmed={list.isPlaceholderData}
          open={open}
          onToggle={(id) => update({ id: open === id ? null : id })}
        />
      )}
      <Pager cursor={cursor ?? null} nextCursor={next} onCursor={(c) => update({ cursor: c })} />
      <SendTestCode open={sending} onOpenChange={setSending} onSent={(id) => update({ id, cursor: null })} />
    </>
  );
}
