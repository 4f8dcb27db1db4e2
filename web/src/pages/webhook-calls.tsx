// A webhook's calls: Status, Event, Attempt, HTTP code + ms, Created; polled while one is on its way.
// A call opens in a side panel (?call= in the URL): payload, response, next attempt, last error, Retry.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { EmptyState, ErrorState, Loading } from '../ui/states.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

const moving = new Set(['PENDING', 'IN_PROGRESS']);

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function CallPanel({ callId, onClose }: { callId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const call = useQuery({
    queryKey: ['webhook-calls', 'one', callId],
    queryFn: ({ signal }) => must(api.GET('/api/v1/webhooks/calls/{callId}', { params: { path: { callId } }, signal })),
    refetchInterval: (query) => (moving.has(query.state.data?.status ?? '') ? 2000 : false),
  });
  const retry = useMutation({
    mutationFn: () => must(api.POST('/api/v1/webhooks/calls/{callId}/retry', { params: { path: { callId } } })),
    onSuccess: async () => {
      toast('Retry queued');
      await queryClient.invalidateQueries({ queryKey: ['webhook-calls'] });
    },
    onError: (error) => toast.error(error.message),
  });
  const c = call.data;
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 w-full max-w-xl overflow-y-auto border-l border-line bg-bg p-5 shadow-xl"
        >
          <div className="flex items-start justify-between gap-2">
            <Dialog.Title className="text-[16px] leading-6 font-semibold break-all">
              Call {c ? c.type : ''}
            </Dialog.Title>
            <Dialog.Close
              className="inline-flex size-8 items-center justify-center rounded-md hover:bg-muted"
              aria-label="Close"
            >
              <X aria-hidden="true" size={16} />
            </Dialog.Close>
          </div>
          {call.isPending ? (
            <Loading label="Loading the call" />
          ) : call.isError ? (
            <ErrorState error={call.error} onRetry={() => void call.refetch()} />
          ) : (
            <div className="mt-3 space-y-4 text-[13px]">
              <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
                <dt className="text-fg-2">Status</dt>
                <dd>
                  <StatusBadge state={c!.status} />
                </dd>
                <dt className="text-fg-2">Call id</dt>
                <dd className="font-mono text-[12px] break-all">{c!.id}</dd>
                <dt className="text-fg-2">Attempts</dt>
                <dd className="tabular">{c!.attempt}</dd>
                <dt className="text-fg-2">HTTP code</dt>
                <dd className="tabular">
                  {c!.responseStatus ?? '—'}
                  {c!.responseTimeMs !== null ? ` · ${c!.responseTimeMs} ms` : ''}
                </dd>
                <dt className="text-fg-2">Next attempt</dt>
                <dd>
                  <Time value={c!.nextAttemptAt} mode="absolute" />
                </dd>
                <dt className="text-fg-2">Last error</dt>
                <dd className="font-mono text-[12px] break-words">{c!.lastError ?? '—'}</dd>
              </dl>
              <Button disabled={retry.isPending || moving.has(c!.status)} onClick={() => retry.mutate()}>
                Retry
              </Button>
              <section aria-label="Payload">
                <h3 className="mb-1 font-medium">Payload</h3>
                <MonoBlock text={pretty(c!.payload)} copyLabel="Copy payload" />
              </section>
              <section aria-label="Response">
                <h3 className="mb-1 font-medium">Response (first 2 KB)</h3>
                <MonoBlock text={c!.responseText ?? ''} copyLabel="Copy response">
                  {c!.responseText || <span className="text-fg-2">No response body</span>}
                </MonoBlock>
              </section>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function WebhookCalls({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const cursor = params.get('cursor') ?? undefined;
  const open = params.get('call');
  const calls = useQuery({
    queryKey: ['webhook-calls', webhookId, cursor],
    queryFn: ({ signal }) =>
      must(api.GET('/api/v1/webhooks/calls', { params: { query: { webhookId, cursor, limit: 50 } }, signal })),
    refetchInterval: (query) => (query.state.data?.data.some((c) => moving.has(c.status)) ? 2000 : false),
  });
  // A call that lands changes the webhook's own facts (last success, failures): read it again.
  const latest = calls.data?.data[0];
  const landed = latest && !moving.has(latest.status) ? `${latest.id}:${latest.status}` : null;
  useEffect(() => {
    if (landed) void queryClient.invalidateQueries({ queryKey: ['webhooks', 'one', webhookId] });
  }, [landed, queryClient, webhookId]);
  const setParam = (name: string, value: string | null) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      if (value === null) copy.delete(name);
      else copy.set(name, value);
      return copy;
    });
  if (calls.isError) return <ErrorState error={calls.error} onRetry={() => void calls.refetch()} />;
  if (calls.data?.data.length === 0 && !cursor)
    return <EmptyState title="No calls yet">Send a test event and watch its call arrive here.</EmptyState>;
  return (
    <>
      <Table label="Calls">
        <colgroup>
          <col className="w-[130px]" />
          <col />
          <col className="hidden w-[80px] sm:table-column" />
          <col className="hidden w-[120px] sm:table-column" />
          <col className="w-[110px]" />
        </colgroup>
        <thead>
          <tr>
            <Th>Status</Th>
            <Th>Event</Th>
            <Th className="hidden text-right sm:table-cell">Attempt</Th>
            <Th className="hidden text-right sm:table-cell">HTTP code</Th>
            <Th>Created</Th>
          </tr>
        </thead>
        <tbody>
          {calls.isPending ? (
            <SkeletonRows rows={3} columns={5} />
          ) : (
            calls.data.data.map((call) => (
              <tr key={call.id} className="hover:bg-surface">
                <Td>
                  <StatusBadge state={call.status} />
                </Td>
                <Td>
                  <button
                    type="button"
                    className="font-mono text-[12px] text-link hover:underline"
                    onClick={() => setParam('call', call.id)}
                  >
                    {call.type}
                  </button>
                </Td>
                <Td className="hidden text-right tabular sm:table-cell">{call.attempt}</Td>
                <Td className="hidden text-right tabular sm:table-cell">
                  {call.responseStatus ?? '—'}
                  {call.responseTimeMs !== null ? <span className="text-fg-2"> · {call.responseTimeMs} ms</span> : null}
                </Td>
                <Td className="text-fg-2">
                  <Time value={call.createdAt} />
                </Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <div className="mt-3 flex gap-2">
        {cursor ? <Button onClick={() => setParam('cursor', null)}>Newest</Button> : null}
        {calls.data?.nextCursor ? (
          <Button onClick={() => setParam('cursor', calls.data.nextCursor)}>Older</Button>
        ) : null}
      </div>
      {open ? <CallPanel callId={open} onClose={() => setParam('call', null)} /> : null}
    </>
  );
}
