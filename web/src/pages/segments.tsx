// Segments: every book's segments in one list (Name, Book, Contacts, Conditions, Updated), filtered by
// book in the URL (?book=); "New segment" opens the builder. The API lists segments per book, so this
// reads each book's list (one request per book, cached).
import { useId } from 'react';
import { Link } from 'react-router';
import { useUrlParam } from '../lib/use-url-param.ts';
import { buttonClass } from '../ui/button.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { bookTitle } from './contact-queries.tsx';
import { useAllSegments } from './segment-queries.tsx';
import { SegmentTable } from './segment-table.tsx';

export default function Segments() {
  const [book, setBook] = useUrlParam('book');
  const all = useAllSegments(book);
  const selectId = useId();
  const books = all.books ?? [];
  const create = (
    <Link
      to={book ? `/segments/new?book=${encodeURIComponent(book)}` : '/segments/new'}
      className={buttonClass('primary')}
    >
      New segment
    </Link>
  );
  return (
    <>
      <title>Segments · Herald</title>
      <PageHeader title="Segments" actions={all.segments.length > 0 ? create : null} />
      {all.error ? (
        <ErrorState error={all.error} onRetry={all.refetch} />
      ) : all.books && books.length === 0 ? (
        <EmptyState
          title="No contact books yet"
          action={
            <Link to="/contacts" className={buttonClass('primary')}>
              Create a contact book
            </Link>
          }
        >
          A segment is a saved filter over one contact book: create a book and add contacts first.
        </EmptyState>
      ) : (
        <>
          {books.length > 1 ? (
            <div role="search" aria-label="Filter segments" className="mb-3">
              <label htmlFor={selectId} className="sr-only">
                Contact book
              </label>
              <select
                id={selectId}
                className="h-8 rounded-md border border-control bg-bg px-2 text-[13px]"
                value={book ?? ''}
                onChange={(e) => setBook(e.target.value || null)}
              >
                <option value="">All contact books</option>
                {books.map((b) => (
                  <option key={b.id} value={b.id}>
                    {bookTitle(b)}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {!all.pending && all.segments.length === 0 ? (
            <EmptyState title={book ? 'No segments in this book yet' : 'No segments yet'} action={create}>
              A segment is a saved filter over a book’s contacts (subscribed, properties, email activity, journeys),
              counted live whenever a campaign or journey uses it.
            </EmptyState>
          ) : (
            <SegmentTable segments={all.segments} pending={all.pending} showBook />
          )}
        </>
      )}
    </>
  );
}
