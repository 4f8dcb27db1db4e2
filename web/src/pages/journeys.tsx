// Journeys: Name, Status, Trigger, Enrolled / Active / Completed, Created; a status filter in the URL
// (the API answers every journey of the team at once, so the filter is applied here); an empty state
// that teaches; Create journey opens the dialog with its first step.
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { formatCount } from '../ui/format.ts';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { JourneyBadge, journeyStatusWord } from './journey-badges.tsx';
import { CreateJourney } from './journey-create.tsx';
import { triggerWords, useContactBooks, type JourneyStatus } from './journey-data.tsx';

const STATUSES: JourneyStatus[] = ['DRAFT', 'ACTIVE', 'PAUSED', 'PENDING_REVIEW', 'ARCHIVED'];

const example = JSON.stringify({
  name: 'Onboarding',
  triggerType: 'API',
  contactBookId: 'cb_…',
  steps: [
    { id: 'welcome', type: 'EMAIL', templateId: 'tpl_…', from: 'hello@example.com' },
    { id: 'pause', type: 'WAIT', seconds: 86400 },
  ],
});

export default function Journeys() {
  const session = useSignedIn();
  const [creating, setCreating] = useState(false);
  const [statusParam, setStatus] = useUrlParam('status');
  const status = STATUSES.find((s) => s === statusParam) ?? null;
  const books = useContactBooks();
  const journeys = useQuery({
    queryKey: ['journeys', 'list'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/journeys', { signal })),
  });
  const all = journeys.data ?? [];
  const rows = status ? all.filter((j) => j.status === status) : all;
  const bookName = (id: string | null) => (id ? (books.data?.find((b) => b.id === id)?.name ?? id) : '—');
  const create = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      Create journey
    </Button>
  );
  return (
    <>
      <title>Journeys · Herald</title>
      <PageHeader title="Journeys" actions={all.length ? create : null} />
      {journeys.isError ? (
        <ErrorState error={journeys.error} onRetry={() => void journeys.refetch()} />
      ) : journeys.data?.length === 0 ? (
        <EmptyState title="No journeys yet" action={create}>
          <p>
            A journey sends a sequence of emails, with waits between them, to each contact it enrols: when your code
            enrols them, or when they join a contact book.
          </p>
          <div className="mt-3 text-left">
            <MonoBlock
              copyLabel="Copy curl"
              text={`${curlFor(session.instance.publicUrl, '/api/v1/journeys', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '${example}'`}
            />
          </div>
        </EmptyState>
      ) : (
        <>
          <div className="mb-3 flex flex-wrap items-center gap-2" role="search" aria-label="Filter journeys">
            <label className="sr-only" htmlFor="journeys-status">
              Status
            </label>
            <select
              id="journeys-status"
              className="h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10"
              value={status ?? ''}
              onChange={(e) => setStatus(e.target.value || null)}
            >
              <option value="">All statuses</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {journeyStatusWord(s)}
                </option>
              ))}
            </select>
            {status ? (
              <Button
                variant="ghost"
                onClick={() => setStatus(null)}
                aria-label={`Remove filter Status: ${journeyStatusWord(status)}`}
              >
                Status: {journeyStatusWord(status)} <X aria-hidden="true" size={14} />
              </Button>
            ) : null}
          </div>
          {journeys.data && rows.length === 0 ? (
            <EmptyState
              title={`No ${journeyStatusWord(status!).toLowerCase()} journeys`}
              action={<Button onClick={() => setStatus(null)}>Clear filter</Button>}
            />
          ) : (
            <Table label="Journeys">
              <colgroup>
                <col />
                <col className="w-[130px]" />
                <col className="hidden w-[200px] md:table-column" />
                <col className="hidden w-[90px] sm:table-column" />
                <col className="w-[70px]" />
                <col className="hidden w-[100px] sm:table-column" />
                <col className="hidden w-[120px] lg:table-column" />
              </colgroup>
              <thead>
                <tr>
                  <Th>Name</Th>
                  <Th>Status</Th>
                  <Th className="hidden md:table-cell">Trigger</Th>
                  <Th className="hidden text-right sm:table-cell">Enrolled</Th>
                  <Th className="text-right">Active</Th>
                  <Th className="hidden text-right sm:table-cell">Completed</Th>
                  <Th className="hidden lg:table-cell">Created</Th>
                </tr>
              </thead>
              <tbody>
                {journeys.isPending ? (
                  <SkeletonRows rows={3} columns={7} />
                ) : (
                  rows.map((j) => (
                    <tr key={j.id} className="hover:bg-surface">
                      <Td>
                        <Link to={`/journeys/${j.id}`} className="font-medium hover:underline">
                          {j.name}
                        </Link>
                      </Td>
                      <Td>
                        <JourneyBadge status={j.status} />
                      </Td>
                      <Td className="hidden text-fg-2 md:table-cell">
                        {j.triggerType === 'CONTACT_ADDED'
                          ? `Added to ${bookName(j.contactBookId)}`
                          : triggerWords[j.triggerType]}
                      </Td>
                      <Td className="hidden text-right tabular sm:table-cell">{formatCount(j.stats.enrolled)}</Td>
                      <Td className="text-right tabular">{formatCount(j.stats.active)}</Td>
                      <Td className="hidden text-right tabular sm:table-cell">{formatCount(j.stats.completed)}</Td>
                      <Td className="hidden text-fg-2 lg:table-cell">
                        <Time value={j.createdAt} />
                      </Td>
                    </tr>
                  ))
                )}
              </tbody>
            </Table>
          )}
        </>
      )}
      <CreateJourney open={creating} onOpenChange={setCreating} />
    </>
  );
}
