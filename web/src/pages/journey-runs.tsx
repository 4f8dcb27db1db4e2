// A journey's runs: Contact, Status, Step, Next run, Exit reason, Started; newest first, 50 a page,
// the status filter and the cursor in the URL; each run opens its history (every step it took and
// when). Contacts are named with one read of the book per page, never one per row.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment, useState, useSyncExternalStore } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, must } from '../api/client.ts';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { RunBadge, runStatusWord } from './journey-badges.tsx';
import { exitReasonWords, LIVE_MS, stepTitle, type Journey, type JourneyRun, type RunStatus } from './journey-data.tsx';

const RUN_STATUSES: RunStatus[] = ['ACTIVE', 'COMPLETED', 'EXITED', 'FAILED'];
const PAGE_SIZE = 50;

const entryWords: Record<string, string> = {
  EMAIL: 'Email queued',
  WAIT: 'Waiting',
  COMPLETED: 'Completed',
  EXITED: 'Exited',
  FAILED: 'Failed',
};

// The columns shown at each width (Tailwind's sm, md and lg): a history row spans exactly those, as a
// colspan wider than the visible columns would make columns of its own.
const WIDER = ['(min-width: 40rem)', '(min-width: 48rem)', '(min-width: 64rem)'];
const COLUMNS = [2, 3, 4, 6];
function subscribe(listener: () => void) {
  const lists = WIDER.map((q) => matchMedia(q));
  for (const list of lists) list.addEventListener('change', listener);
  return () => lists.forEach((list) => list.removeEventListener('change', listener));
}
const useVisibleColumns = () =>
  useSyncExternalStore(subscribe, () => COLUMNS[WIDER.filter((q) => matchMedia(q).matches).length]!);

/** Where the run is: the last step it took, as "2 of 3 · Wait 1 day". */
function stepOf(run: JourneyRun, journey: Journey): string {
  const last = [...run.history].reverse().find((e) => e.stepId !== undefined);
  const index = last ? journey.steps.findIndex((s) => s.id === last.stepId) : -1;
  if (index < 0) return run.status === 'ACTIVE' ? 'Starting' : '—';
  return `${index + 1} of ${journey.steps.length} · ${stepTitle(journey.steps[index]!)}`;
}

function exitOf(run: JourneyRun): string {
  if (run.exitReason) return exitReasonWords[run.exitReason] ?? run.exitReason;
  // Leaving the segment has no reason of the contract's: the history's note says it.
  if (run.status === 'EXITED') return run.history.at(-1)?.note ?? 'Left the segment';
  return '—';
}

function History({ run, journey }: { run: JourneyRun; journey: Journey }) {
  const name = (stepId: string | undefined) => {
    const index = journey.steps.findIndex((s) => s.id === stepId);
    return index < 0 ? stepId : `Step ${index + 1}: ${stepTitle(journey.steps[index]!)}`;
  };
  if (run.history.length === 0) return <p className="text-fg-2">Nothing yet: the run starts within moments.</p>;
  return (
    <ol className="space-y-1">
      {run.history.map((entry, i) => (
        <li key={i} className="grid grid-cols-1 gap-x-3 sm:grid-cols-[170px_1fr]">
          <span className="text-fg-2">
            <Time value={entry.at} mode="absolute" />
          </span>
          <span className="min-w-0 break-words whitespace-normal">
            <span className="font-medium">{entryWords[entry.type] ?? entry.type}</span>
            {entry.stepId ? <span className="text-fg-2"> · {name(entry.stepId)}</span> : null}
            {entry.until ? (
              <span className="text-fg-2">
                {' '}
                until <Time value={entry.until} mode="absolute" />
              </span>
            ) : null}
            {entry.emailId ? (
              <>
                {' · '}
                <Link to={`/emails/${entry.emailId}`} className="text-link underline underline-offset-2">
                  View email
                </Link>
              </>
            ) : null}
            {entry.note ? <span className="font-mono text-[12px] text-fg-2"> · {entry.note}</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

export function JourneyRuns({ journey }: { journey: Journey }) {
  const [params, setParams] = useSearchParams();
  const status = RUN_STATUSES.find((s) => s === params.get('status'));
  const cursor = params.get('cursor');
  const [open, setOpen] = useState<Set<string>>(new Set());
  const columns = useVisibleColumns();
  const runs = useQuery({
    queryKey: ['journey-runs', journey.id, status ?? null, cursor],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/journeys/{id}/runs', {
          params: { path: { id: journey.id }, query: { status, cursor: cursor ?? undefined, limit: PAGE_SIZE } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: journey.status === 'ACTIVE' ? LIVE_MS : false,
  });
  const ids = [...new Set((runs.data?.data ?? []).map((r) => r.contactId))].sort();
  const bookId = journey.contactBookId;
  const contacts = useQuery({
    queryKey: ['journey-run-contacts', bookId, ids.join(',')],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/contacts', {
          params: { path: { contactBookId: bookId! }, query: { ids: ids.join(','), limit: 200 } },
          signal,
        }),
      ),
    enabled: Boolean(bookId) && ids.length > 0,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
  const emailOf = (contactId: string) => contacts.data?.find((c) => c.id === contactId)?.email ?? contactId;
  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) copy.delete(name);
        else copy.set(name, value);
      }
      return copy;
    });
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const rows = runs.data?.data ?? [];
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-2" role="search" aria-label="Filter runs">
        <label className="sr-only" htmlFor="journey-runs-status">
          Run status
        </label>
        <select
          id="journey-runs-status"
          className="h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10"
          value={status ?? ''}
          onChange={(e) => update({ status: e.target.value || null, cursor: null })}
        >
          <option value="">All runs</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {runStatusWord(s)}
            </option>
          ))}
        </select>
      </div>
      {runs.isError ? (
        <ErrorState error={runs.error} onRetry={() => void runs.refetch()} />
      ) : runs.data && rows.length === 0 && !cursor ? (
        <EmptyState title={status ? `No ${runStatusWord(status).toLowerCase()} runs` : 'No runs yet'}>
          {status
            ? 'Runs appear here as contacts reach this state.'
            : journey.triggerType === 'API'
              ? 'A run starts when a contact is enrolled: use Enrol contact, or POST /v1/journeys/{id}/enroll.'
              : 'A run starts when a contact is added to the book while the journey is active.'}
        </EmptyState>
      ) : (
        <Table label="Runs">
          <colgroup>
            <col />
            <col className="w-[120px]" />
            <col className="hidden w-[200px] md:table-column" />
            <col className="hidden w-[120px] sm:table-column" />
            <col className="hidden w-[150px] lg:table-column" />
            <col className="hidden w-[120px] lg:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>Contact</Th>
              <Th>Status</Th>
              <Th className="hidden md:table-cell">Step</Th>
              <Th className="hidden sm:table-cell">Next run</Th>
              <Th className="hidden lg:table-cell">Exit reason</Th>
              <Th className="hidden lg:table-cell">Started</Th>
            </tr>
          </thead>
          <tbody>
            {runs.isPending ? (
              <SkeletonRows rows={3} columns={6} />
            ) : (
              rows.map((run) => {
                const expanded = open.has(run.id);
                const contact = emailOf(run.contactId);
                return (
                  <Fragment key={run.id}>
                    <tr className="hover:bg-surface">
                      <Td>
                        <button
                          type="button"
                          aria-expanded={expanded}
                          aria-controls={expanded ? `run-${run.id}` : undefined}
                          className="inline-flex max-w-full items-center gap-1 text-left hover:underline"
                          onClick={() => toggle(run.id)}
                        >
                          {expanded ? (
                            <ChevronDown aria-hidden="true" size={14} className="shrink-0" />
                          ) : (
                            <ChevronRight aria-hidden="true" size={14} className="shrink-0" />
                          )}
                          <span className="truncate">{contact}</span>
                        </button>
                      </Td>
                      <Td>
                        <RunBadge status={run.status} />
                      </Td>
                      <Td className="hidden text-fg-2 md:table-cell">{stepOf(run, journey)}</Td>
                      <Td className="hidden text-fg-2 sm:table-cell">
                        {run.status === 'ACTIVE' ? <Time value={run.nextRunAt} /> : '—'}
                      </Td>
                      <Td className="hidden text-fg-2 lg:table-cell">{exitOf(run)}</Td>
                      <Td className="hidden text-fg-2 lg:table-cell">
                        <Time value={run.createdAt} />
                      </Td>
                    </tr>
                    {expanded ? (
                      <tr id={`run-${run.id}`}>
                        <td colSpan={columns} className="border-b border-line bg-surface px-3 py-2 text-[13px]">
                          <p className="mb-1 text-fg-2 md:hidden">{stepOf(run, journey)}</p>
                          <History run={run} journey={journey} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })
            )}
          </tbody>
        </Table>
      )}
      <Pager cursor={cursor} nextCursor={runs.data?.nextCursor} onCursor={(next) => update({ cursor: next })} />
    </div>
  );
}
