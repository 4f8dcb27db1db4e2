// Who a segment matches: the live count with its problems as warnings, and the first 20 matching
// contacts. The API counts saved segments only (there is no preview of an unsaved definition), so
// while the builder has unsaved changes the count says it is the saved one's.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, must } from '../api/client.ts';
import { formatCount } from '../ui/format.ts';
import { ErrorState } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import type { Segment } from './contact-queries.tsx';

export function SegmentCount({ segment, dirty }: { segment: Segment | null; dirty: boolean }) {
  return (
    <section aria-labelledby="segment-count" className="rounded-lg border border-line p-4">
      <h2 id="segment-count" className="text-[13px] font-medium text-fg-2">
        Live count
      </h2>
      {segment === null ? (
        <p className="mt-2 text-[13px] text-fg-2">Save the segment to count the contacts it matches.</p>
      ) : (
        <>
          <p role="status" aria-live="polite" className="mt-1">
            <span className="text-[28px] leading-9 font-semibold tabular">{formatCount(segment.count)}</span>{' '}
            <span className="text-[13px] text-fg-2">
              {segment.count === 1 ? 'contact matches' : 'contacts match'}
              {dirty ? ' (as saved)' : ''}
            </span>
          </p>
          {dirty ? (
            <p className="mt-1 text-[12px] text-fg-2">
              Unsaved changes: save to count them. The API counts saved segments only.
            </p>
          ) : null}
          {segment.problems.length > 0 ? (
            <ul
              aria-label="Problems"
              className="mt-3 space-y-1 rounded-md bg-[var(--tone-warning-bg)] p-2 text-[13px] text-[var(--tone-warning)]"
            >
              {segment.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}

export function SegmentContacts({ segment }: { segment: Segment }) {
  const contacts = useQuery({
    // Keyed by what decides the matches (not updatedAt: a server clock may not have moved between saves).
    queryKey: ['segments', 'contacts', segment.id, JSON.stringify(segment.definition), segment.count],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/segments/{segmentId}/contacts', {
          params: {
            path: { contactBookId: segment.contactBookId, segmentId: segment.id },
            query: { limit: 20 },
          },
          signal,
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const rows = contacts.data?.data ?? [];
  return (
    <section aria-labelledby="segment-contacts" className="space-y-2">
      <h2 id="segment-contacts" className="text-[16px] leading-6 font-semibold">
        Matching contacts
      </h2>
      {contacts.isError ? (
        <ErrorState error={contacts.error} onRetry={() => void contacts.refetch()} />
      ) : !contacts.isPending && rows.length === 0 ? (
        <p className="text-[13px] text-fg-2">No contact matches the saved conditions.</p>
      ) : (
        <>
          <Table label="Matching contacts">
            <colgroup>
              <col />
              <col className="w-[120px]" />
            </colgroup>
            <thead>
              <tr>
                <Th>Email</Th>
                <Th>Subscribed</Th>
              </tr>
            </thead>
            <tbody>
              {contacts.isPending ? (
                <SkeletonRows rows={5} columns={2} />
              ) : (
                rows.map((c) => (
                  <tr key={c.id} className="hover:bg-surface">
                    <Td>
                      <Link
                        to={`/contacts/${segment.contactBookId}?contact=${encodeURIComponent(c.id)}`}
                        className="hover:underline"
                      >
                        {c.email}
                      </Link>
                    </Td>
                    <Td>{c.subscribed ? <Tag tone="success">Subscribed</Tag> : <Tag>Unsubscribed</Tag>}</Td>
                  </tr>
                ))
              )}
            </tbody>
          </Table>
          {contacts.data && contacts.data.total > rows.length ? (
            <p className="text-[12px] text-fg-2 tabular">
              The first {rows.length} of {formatCount(contacts.data.total)}, in the order they were added.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
