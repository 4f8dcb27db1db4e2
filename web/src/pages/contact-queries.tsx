// The contact books, contacts and segments as the API answers them, and the queries the Contacts and
// Segments pages share (one cache key per resource, invalidated after every write).
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Book = Json<paths['/api/v1/contactBooks/{contactBookId}']['get']['responses'][200]>;
export type Contact = Json<paths['/api/v1/contactBooks/{contactBookId}/contacts']['get']['responses'][200]>[number];
export type Segment = Json<paths['/api/v1/contactBooks/{contactBookId}/segments/{segmentId}']['get']['responses'][200]>;
export type BookInput = NonNullable<
  paths['/api/v1/contactBooks/{contactBookId}']['patch']['requestBody']
>['content']['application/json'];

export const bookKeys = {
  all: ['contact-books'] as const,
  one: (id: string) => ['contact-books', 'one', id] as const,
};
export const contactKeys = {
  book: (bookId: string) => ['contacts', bookId] as const,
};
export const segmentKeys = {
  all: ['segments'] as const,
  book: (bookId: string) => ['segments', 'book', bookId] as const,
  one: (bookId: string, id: string) => ['segments', 'one', bookId, id] as const,
};

export function useBooks() {
  return useQuery({
    queryKey: bookKeys.all,
    queryFn: ({ signal }) => must(api.GET('/api/v1/contactBooks', { signal })),
  });
}

export function useBook(bookId: string) {
  return useQuery({
    queryKey: bookKeys.one(bookId),
    queryFn: ({ signal }) =>
      must(api.GET('/api/v1/contactBooks/{contactBookId}', { params: { path: { contactBookId: bookId } }, signal })),
    enabled: bookId !== '',
  });
}

export function bookSegmentsQuery(bookId: string) {
  return {
    queryKey: segmentKeys.book(bookId),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/segments', {
          params: { path: { contactBookId: bookId } },
          signal,
        }),
      ),
  };
}

/** A book's name as the lists show it: its emoji, then its name. */
export const bookTitle = (book: Pick<Book, 'emoji' | 'name'>) => `${book.emoji} ${book.name}`;
