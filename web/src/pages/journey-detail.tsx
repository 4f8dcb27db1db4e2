// One journey: name, status, trigger, book and segment; its counters; tabs Steps (the vertical flow,
// each email step with its send count, edited while a draft or paused), Runs and JSON. Read again
// every 5 s while active (runs move without the page doing anything), not while the tab is hidden.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, ApiFailure, must } from '../api/client.ts';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { formatCount } from '../ui/format.ts';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { ErrorState, Loading } from '../ui/states.tsx';
import { UrlTabs } from '../ui/tabs.tsx';
import { Time } from '../ui/time.tsx';
import { JourneyActions } from './journey-actions.tsx';
import { JourneyBadge } from './journey-badges.tsx';
import { LIVE_MS, triggerWords, useContactBooks, useSegments, type Journey } from './journey-data.tsx';
import { JourneyFlow } from './journey-flow.tsx';
import { JourneyRuns } from './journey-runs.tsx';
import { NotFound } from './not-found.tsx';

const back = { to: '/journeys', label: 'Back to Journeys' };

function Stats({ stats }: { stats: Journey['stats'] }) {
  const items = [
    ['Enrolled', stats.enrolled],
    ['Active', stats.active],
    ['Completed', stats.completed],
    ['Exited', stats.exited],
    ['Failed', stats.failed],
  ] as const;
  return (
    <section aria-label="Runs so far" className="mb-6">
      <dl className="grid grid-cols-3 gap-3 sm:grid-cols-5">
        {items.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-line p-3">
            <dt className="text-[12px] text-fg-2">{label}</dt>
            <dd className="text-[28px] leading-9 font-semibold tabular">{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Facts({ journey: j }: { journey: Journey }) {
  const books = useContactBooks();
  const segments = useSegments(j.segmentId ? j.contactBookId : null);
  const book = books.data?.find((b) => b.id === j.contactBookId);
  const segment = segments.data?.data.find((s) => s.id === j.segmentId);
  return (
    <>
      <span>
        {j.triggerType === 'CONTACT_ADDED' ? 'Enrols contacts added to the book' : triggerWords[j.triggerType]}
      </span>
      {j.contactBookId ? (
        <span>
          Book{' '}
          <Link to={`/contacts/${j.contactBookId}`} className="text-link underline underline-offset-2">
            {book?.name ?? j.contactBookId}
          </Link>
        </span>
      ) : null}
      <span>
        {j.segmentId ? (
          <>
            Segment{' '}
            <Link to={`/segments/${j.segmentId}`} className="text-link underline underline-offset-2">
              {segment?.name ?? j.segmentId}
            </Link>
            {j.exitWhenLeavesSegment ? ' (leaving it exits)' : ''}
          </>
        ) : (
          'Every contact in the book'
        )}
      </span>
      <CopyableId id={j.id} what="journey" />
      <span>
        Created <Time value={j.createdAt} />
      </span>
      <span>
        Updated <Time value={j.updatedAt} />
      </span>
    </>
  );
}

export default function JourneyDetail() {
  const { id = '' } = useParams();
  const journey = useQuery({
    queryKey: ['journeys', 'one', id],
    queryFn: ({ signal }) => must(api.GET('/api/v1/journeys/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (query) => (query.state.data?.status === 'ACTIVE' ? LIVE_MS : false),
  });
  if (journey.isPending) return <Loading label="Loading the journey" />;
  if (journey.isError) {
    if (journey.error instanceof ApiFailure && journey.error.status === 404)
      return <NotFound what="journey" back={back} />;
    return <ErrorState error={journey.error} onRetry={() => void journey.refetch()} />;
  }
  const j = journey.data;
  return (
    <>
      <title>{`${j.name} · Journeys · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/journeys" className="hover:underline">
          Journeys
        </Link>
      </nav>
      <PageHeader
        title={j.name}
        badges={<JourneyBadge status={j.status} />}
        facts={<Facts journey={j} />}
        actions={
          <>
            <CopyCurl path={`/api/v1/journeys/${j.id}`} />
            <JourneyActions journey={j} />
          </>
        }
      />
      <Stats stats={j.stats} />
      <UrlTabs
        label="Journey"
        tabs={[
          { value: 'steps', label: 'Steps', content: <JourneyFlow journey={j} /> },
          { value: 'runs', label: 'Runs', content: <JourneyRuns journey={j} /> },
          {
            value: 'json',
            label: 'JSON',
            content: <MonoBlock text={JSON.stringify(j, null, 2)} copyLabel="Copy JSON" />,
          },
        ]}
      />
    </>
  );
}
