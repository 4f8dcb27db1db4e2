// SMS: the message log (Recipient masked as the API gives it, Status, Segments, Charge, Reason,
// Created), 50 rows, the status filter and the cursor in the URL, the next page prefetched; a message
// opens in a side panel (?sms=); "Send test SMS" shows the charge and the balance after.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { MessagingBadge } from '../ui/messaging-badges.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { formatCharge, isSmsStatus, SMS_STATUSES, smsMoving, type SmsMessage, type SmsStatus } from './sms-format.ts';
import { SmsPanel } from './sms-panel.tsx';
import { SendTestSms, SentNotice } from './sms-send.tsx';

const PAGE_SIZE = 50;
const statusWords: Record<SmsStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  rejected: 'Rejected',
};

function smsQuery(status: SmsStatus | undefined, cursor: string | undefined) {
  return {
    queryKey: ['sms', 'list', status ?? null, cursor ?? null],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(api.GET('/api/v1/sms', { params: { query: { status, cursor, limit: PAGE_SIZE } }, signal })),
  };
}

export default function Sms() {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const status = isSmsStatus(rawStatus) ? rawStatus : undefined;
  const cursor = params.get('cursor') ?? undefined;
  const open = params.get('sms');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<SmsMessage | null>(null);
  const list = useQuery({
    ...smsQuery(status, cursor),
    placeholderData: keepPreviousData,
    // Poll while a message shown can still change (queued, or sent and awaiting its report).
    refetchInterval: (query) => (query.state.data?.data.some((m) => smsMoving(m.status)) ? 5000 : false),
  });
  const rows = list.data?.data ?? [];
  const next = list.data?.nextCursor ?? null;

  // The next page prefetched when idle, so "Older" is instant (a timer where there is no requestIdleCallback).
  useEffect(() => {
    if (!next) return;
    const prefetch = () => void queryClient.prefetchQuery(smsQuery(status, next));
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(prefetch, 300);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(prefetch);
    return () => cancelIdleCallback(handle);
  }, [next, status, queryClient]);

  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') copy.delete(name);
        else copy.set(name, value);
      }
      return copy;
    });

  const send = (
    <Button variant="primary" onClick={() => setSending(true)}>
      Send test SMS
    </Button>
  );
  const curl = `${curlFor(session.instance.publicUrl, '/api/v1/sms', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '{"to":"+14155550123","text":"Hello from Herald"}'`;

  return (
    <>
      <title>SMS · Herald</title>
      <PageHeader title="SMS" actions={send} />
      {sent ? <SentNotice sms={sent} onDismiss={() => setSent(null)} /> : null}
      <div className="mb-3 flex flex-wrap items-center gap-2" role="search" aria-label="Filter SMS">
        <label className="sr-only" htmlFor="sms-status">
          Status
        </label>
        <select
          id="sms-status"
          className="h-8 rounded-md border border-control bg-bg px-2 text-[13px]"
          value={status ?? ''}
          onChange={(e) => update({ status: e.target.value, cursor: null })}
        >
          <option value="">All statuses</option>
          {SMS_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusWords[s]}
            </option>
          ))}
        </select>
        {status ? (
          <span className="inline-flex h-7 items-center gap-1 rounded-full border border-line pr-1 pl-3 text-[12px]">
            Status: {statusWords[status]}
            <button
              type="button"
              aria-label={`Remove filter Status: ${statusWords[status]}`}
              className="flex size-5 items-center justify-center rounded-full hover:bg-muted"
              onClick={() => update({ status: null, cursor: null })}
            >
              <X aria-hidden="true" size={12} />
            </button>
          </span>
        ) : null}
      </div>

      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.isPending && rows.length === 0 && !cursor ? (
        <EmptyState title={status ? 'No SMS matches this filter.' : 'No SMS sent yet.'} action={status ? null : send}>
          {status ? (
            <p>Try another status, or clear the filter.</p>
          ) : (
            <>
              <p>
                Every SMS the team sends, through the API, one-time codes or journeys, appears here with its charge.
              </p>
              <div className="mt-3 text-left">
                <MonoBlock copyLabel="Copy curl" text={curl} />
              </div>
            </>
          )}
        </EmptyState>
      ) : (
        <Table label="SMS" className={list.isPlaceholderData ? 'opacity-70' : undefined}>
          <colgroup>
            <col className="w-[42%] sm:w-[170px]" />
            <col className="w-[120px]" />
            <col className="hidden w-[90px] sm:table-column" />
            <col className="hidden w-[150px] sm:table-column" />
            <col className="hidden md:table-column" />
            <col className="w-[110px]" />
          </colgroup>
          <thead>
            <tr>
              <Th>Recipient</Th>
              <Th>Status</Th>
              <Th className="hidden text-right sm:table-cell">Segments</Th>
              <Th className="hidden text-right sm:table-cell">Charge</Th>
              <Th className="hidden md:table-cell">Reason</Th>
              <Th>Created</Th>
            </tr>
          </thead>
          <tbody>
            {list.isPending ? (
              <SkeletonRows rows={8} columns={6} />
            ) : (
              rows.map((m) => (
                <tr key={m.id} className="hover:bg-surface">
                  <Td>
                    <button
                      type="button"
                      className="font-mono text-[12px] text-link hover:underline"
                      onClick={() => update({ sms: m.id })}
                    >
                      {m.to}
                    </button>
                  </Td>
                  <Td>
                    <MessagingBadge kind="sms" state={m.status} />
                  </Td>
                  <Td className="hidden text-right tabular sm:table-cell">{m.segments}</Td>
                  <Td className="hidden text-right tabular sm:table-cell">
                    {formatCharge(m.charge)}
                    {m.status === 'rejected' ? <span className="text-fg-2"> refunded</span> : null}
                  </Td>
                  <Td className="hidden text-fg-2 md:table-cell" title={m.reason?.message}>
                    {m.reason?.message ?? '—'}
                  </Td>
                  <Td className="text-fg-2">
                    <Time value={m.createdAt} />
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <Pager cursor={cursor ?? null} nextCursor={next} onCursor={(c) => update({ cursor: c })} />
      <SendTestSms open={sending} onOpenChange={setSending} onSent={setSent} />
      {open ? <SmsPanel id={open} onClose={() => update({ sms: null })} /> : null}
    </>
  );
}
