// One segment (/segments/{id}?book={bookId}), or a new one (/segments/new?book=). The API addresses a
// segment through its book: a link without ?book= finds the book among the team's; an id no book of
// this team has shows the not-found page. The saved segment is read again every 30 s while the tab
// is visible, so its count stays live.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useParams } from 'react-router';
import { api, must } from '../api/client.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { inputClass } from '../ui/dialog.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { bookTitle, segmentKeys, useBook, useBooks } from './contact-queries.tsx';
import { NotFound } from './not-found.tsx';
import { SegmentEditor } from './segment-editor.tsx';
import { useSegmentBook } from './segment-queries.tsx';

const back = { to: '/segments', label: 'Back to Segments' };

function ExistingSegment({ id, bookParam }: { id: string; bookParam: string | null }) {
  const located = useSegmentBook(id, bookParam);
  const bookId = located.bookId ?? '';
  const book = useBook(bookId);
  const segment = useQuery({
    queryKey: segmentKeys.one(bookId, id),
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/segments/{segmentId}', {
          params: { path: { contactBookId: bookId, segmentId: id } },
          signal,
        }),
      ),
    enabled: bookId !== '',
    refetchInterval: 30_000,
    refetchIntervalInBackground: false,
  });
  if (located.error) return <ErrorState error={located.error} />;
  if (located.bookId === '') return <NotFound what="segment" back={back} />;
  if (located.bookId === null || book.isPending || segment.isPending) return <Loading label="Loading the segment" />;
  const error = book.error ?? segment.error;
  if (error) {
    if (isNotFound(error)) return <NotFound what="segment" back={back} />;
    return (
      <ErrorState
        error={error}
        onRetry={() => {
          void book.refetch();
          void segment.refetch();
        }}
      />
    );
  }
  return <SegmentEditor key={segment.data!.id} book={book.data!} segment={segment.data!} />;
}

function NewSegment({ bookParam, setBook }: { bookParam: string | null; setBook: (id: string) => void }) {
  const books = useBooks();
  const selectId = useId();
  if (books.isPending) return <Loading label="Loading the contact books" />;
  if (books.isError) return <ErrorState error={books.error} onRetry={() => void books.refetch()} />;
  const book = books.data.find((b) => b.id === bookParam) ?? books.data[0];
  if (!book)
    return (
      <>
        <title>New segment · Herald</title>
        <PageHeader title="New segment" />
        <EmptyState title="A segment is built on a contact book, and this team has none yet.">
          <Link className="text-link underline underline-offset-2" to="/contacts">
            Create a contact book
          </Link>
        </EmptyState>
      </>
    );
  const picker = (
    <div className="sm:w-80">
      <label htmlFor={selectId} className="mb-1 block text-[13px] font-medium">
        Contact book
      </label>
      <select id={selectId} className={inputClass} value={book.id} onChange={(e) => setBook(e.target.value)}>
        {books.data.map((b) => (
          <option key={b.id} value={b.id}>
            {bookTitle(b)}
          </option>
        ))}
      </select>
    </div>
  );
  return <SegmentEditor key={book.id} book={book} segment={null} bookPicker={picker} />;
}

export default function SegmentDetail() {
  const { id = '' } = useParams();
  const [bookParam, setBookParam] = useUrlParam('book');
  if (id === 'new') return <NewSegment bookParam={bookParam} setBook={(book) => setBookParam(book, ['book'])} />;
  return <ExistingSegment id={id} bookParam={bookParam} />;
}
