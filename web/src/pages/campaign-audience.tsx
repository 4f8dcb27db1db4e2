// A campaign's audience: a contact book, or one of its segments, with its count. The books and each
// book's segments are small lookups, read once and kept a minute.
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import { Field, inputClass } from '../ui/dialog.tsx';
import { formatCount } from '../ui/format.ts';

export function useContactBooks() {
  return useQuery({
    queryKey: ['campaign-audience', 'books'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/contactBooks', { signal })),
    staleTime: 60_000,
  });
}

export function useBookSegments(bookId: string) {
  return useQuery({
    queryKey: ['campaign-audience', 'segments', bookId],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/segments', {
          params: { path: { contactBookId: bookId } },
          signal,
        }),
      ),
    enabled: bookId !== '',
    staleTime: 60_000,
  });
}

const plural = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;

/** The book and segment pickers, each with its API error, and the audience's size. */
export function AudienceFields({
  bookId,
  segmentId,
  onChange,
  errors,
}: {
  bookId: string;
  segmentId: string;
  onChange: (bookId: string, segmentId: string) => void;
  errors: { contactBookId?: string; segmentId?: string };
}) {
  const books = useContactBooks();
  const segments = useBookSegments(bookId);
  const book = books.data?.find((b) => b.id === bookId);
  const segment = segments.data?.data.find((s) => s.id === segmentId);
  const noBooks = books.data?.length === 0;
  return (
    <div className="space-y-3">
      <Field
        label="Contact book"
        error={errors.contactBookId ?? (books.isError ? books.error.message : undefined)}
        hint={noBooks ? 'This team has no contact book yet: add one under Contacts first.' : undefined}
      >
        {(props) => (
          <select
            {...props}
            className={inputClass}
            value={bookId}
            onChange={(e) => onChange(e.target.value, '')}
            disabled={books.isPending}
          >
            <option value="">{books.isPending ? 'Loading…' : 'Choose a contact book'}</option>
            {books.data?.map((b) => (
              <option key={b.id} value={b.id}>
                {b.emoji} {b.name} ({plural(b._count.contacts, 'contact')})
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Segment" error={errors.segmentId ?? (segments.isError ? segments.error.message : undefined)}>
        {(props) => (
          <select
            {...props}
            className={inputClass}
            value={segmentId}
            onChange={(e) => onChange(bookId, e.target.value)}
            disabled={bookId === ''}
          >
            <option value="">Every subscribed contact of the book</option>
            {segments.data?.data.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({plural(s.count, 'contact')})
              </option>
            ))}
          </select>
        )}
      </Field>
      {book ? (
        <p className="text-[13px] text-fg-2" aria-live="polite">
          {segment
            ? `${plural(segment.count, 'contact')} of ${book.name} match ${segment.name} today.`
            : `${plural(book._count.contacts, 'contact')} in ${book.name}; the subscribed ones receive it.`}{' '}
          The audience is taken when the campaign starts.
        </p>
      ) : null}
    </div>
  );
}

/** "Readers · Active readers": the audience named from its ids (the book's id while the names load). */
export function AudienceName({ bookId, segmentId }: { bookId: string; segmentId: string | null }) {
  const books = useContactBooks();
  const segments = useBookSegments(segmentId ? bookId : '');
  const book = books.data?.find((b) => b.id === bookId);
  const segment = segments.data?.data.find((s) => s.id === segmentId);
  return (
    <span>
      {book ? `${book.emoji} ${book.name}` : <code className="font-mono text-[12px]">{bookId}</code>}
      {segmentId ? (
        <>
          {' · '}
          {segment ? segment.name : <code className="font-mono text-[12px]">{segmentId}</code>}
        </>
      ) : null}
    </span>
  );
}
