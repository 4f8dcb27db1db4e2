// A campaign's recipients and their emails, newest first: filtered by the email's status, paged by
// cursor, both in the URL; polled with the campaign while it sends.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, must } from '../api/client.ts';
import type { paths } from '../api/schema';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { StatusBadge, statusWord } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

type EmailStatus = NonNullable<
  NonNullable<paths['/api/v1/campaigns/{id}/recipients']['get']['parameters']['query']>['status']
>;

// The outcomes worth a filter, in the order mail moves.
const OUTCOMES: EmailStatus[] = [
  'QUEUED',
  'SENT',
  'DELIVERED',
  'OPENED',
  'CLICKED',
  'DELIVERY_DELAYED',
  'BOUNCED',
  'COMPLAINED',
  'REJECTED',
  'FAILED',
  'SUPPRESSED',
  'CANCELLED',
];

export function CampaignRecipients({ campaignId, live }: { campaignId: string; live: boolean }) {
  const [params, setParams] = useSearchParams();
  const cursor = params.get('cursor') ?? undefined;
  const requested = params.get('status') as EmailStatus | null;
  const status = requested && OUTCOMES.includes(requested) ? requested : undefined;
  const recipients = useQuery({
    queryKey: ['campaign-recipients', campaignId, status ?? null, cursor ?? null],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/campaigns/{id}/recipients', {
          params: { path: { id: campaignId }, query: { status, cursor, limit: 50 } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 5000 : false,
  });
  const setParam = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') copy.delete(name);
        else copy.set(name, value);
      }
      return copy;
    });
  const rows = recipients.data?.data ?? [];
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-2" role="search" aria-label="Filter recipients">
        <label htmlFor="campaign-recipients-status" className="text-[13px] text-fg-2">
          Outcome
        </label>
        <select
          id="campaign-recipients-status"
          className="h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10"
          value={status ?? ''}
          onChange={(e) => setParam({ status: e.target.value, cursor: null })}
        >
          <option value="">Every outcome</option>
          {OUTCOMES.map((s) => (
            <option key={s} value={s}>
              {statusWord(s)}
            </option>
          ))}
        </select>
      </div>
      {recipients.isError ? (
        <ErrorState error={recipients.error} onRetry={() => void recipients.refetch()} />
      ) : !recipients.isPending && rows.length === 0 && !cursor ? (
        <EmptyState title={status ? `No recipient is ${statusWord(status).toLowerCase()}.` : 'No recipients yet'}>
          {status ? null : 'Each recipient appears here with their email once the campaign sends to them.'}
        </EmptyState>
      ) : (
        <Table label="Recipients" className={recipients.isPlaceholderData ? 'opacity-70' : undefined}>
          <colgroup>
            <col />
            <col className="w-[150px]" />
            <col className="hidden w-[130px] sm:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>Recipient</Th>
              <Th>Status</Th>
              <Th className="hidden sm:table-cell">Updated</Th>
            </tr>
          </thead>
          <tbody>
            {recipients.isPending ? (
              <SkeletonRows rows={5} columns={3} />
            ) : (
              rows.map((r) => (
                <tr key={r.emailId} className="hover:bg-surface">
                  <Td>
                    <Link to={`/emails/${r.emailId}`} className="hover:underline">
                      {r.email}
                    </Link>
                  </Td>
                  <Td>
                    <StatusBadge state={r.status} />
                  </Td>
                  <Td className="hidden text-fg-2 sm:table-cell">
                    <Time value={r.updatedAt} />
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <Pager
        cursor={cursor ?? null}
        nextCursor={recipients.data?.nextCursor}
        onCursor={(next) => setParam({ cursor: next })}
      />
    </div>
  );
}
