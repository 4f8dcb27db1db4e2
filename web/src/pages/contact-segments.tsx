// A book's Segments tab: its segments with their live counts, and "New segment" on this book.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { buttonClass } from '../ui/button.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { bookSegmentsQuery, type Book } from './contact-queries.tsx';
import { SegmentTable } from './segment-table.tsx';

export function BookSegments({ book }: { book: Book }) {
  const segments = useQuery(bookSegmentsQuery(book.id));
  const create = (
    <Link to={`/segments/new?book=${encodeURIComponent(book.id)}`} className={buttonClass('primary')}>
      New segment
    </Link>
  );
  if (segments.isError) return <ErrorState error={segments.error} onRetry={() => void segments.refetch()} />;
  if (segments.data?.data.length === 0)
    return (
      <EmptyState title="No segments in this book yet" action={create}>
        A segment is a saved filter over this book’s contacts (subscribed, properties, email activity…), counted live
        whenever it is used.
      </EmptyState>
    );
  return (
    <div className="space-y-3">
      <div className="flex justify-end">{create}</div>
      <SegmentTable segments={segments.data?.data ?? []} pending={segments.isPending} showBook={false} />
    </div>
  );
}
