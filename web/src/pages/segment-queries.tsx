// What the segment pages read besides the segment: every book's segments (the index, and finding a
// segment's book when a pasted link has no ?book=), and the journeys and campaigns the pickers offer.
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import { bookSegmentsQuery, useBooks, type Book, type Segment } from './contact-queries.tsx';

export interface BookSegments {
  books: Book[] | undefined;
  segments: (Segment & { book: Book })[];
  pending: boolean;
  error: unknown;
  refetch: () => void;
}

/** The segments of one book, or of all the team's (`only` null), each with its book; none when disabled. */
export function useAllSegments(only: string | null, enabled = true): BookSegments {
  const books = useBooks();
  const chosen = enabled ? (books.data ?? []).filter((b) => only === null || b.id === only) : [];
  const lists = useQueries({ queries: chosen.map((b) => bookSegmentsQuery(b.id)) });
  const failed = lists.find((l) => l.isError);
  return {
    books: books.data,
    segments: chosen.flatMap((book, i) => (lists[i]?.data?.data ?? []).map((s) => ({ ...s, book }))),
    pending: books.isPending || lists.some((l) => l.isPending),
    error: books.error ?? failed?.error ?? null,
    refetch: () => {
      void books.refetch();
      for (const l of lists) if (l.isError) void l.refetch();
    },
  };
}

/**
 * The book of segment `id`: the URL's ?book= when given, else found among the team's books. null
 * while looking, '' when no book of the team has it (the not-found page).
 */
export function useSegmentBook(id: string, bookParam: string | null): { bookId: string | null; error: unknown } {
  const all = useAllSegments(null, !bookParam);
  if (bookParam) return { bookId: bookParam, error: null };
  if (all.error) return { bookId: null, error: all.error };
  if (all.pending) return { bookId: null, error: null };
  return { bookId: all.segments.find((s) => s.id === id)?.contactBookId ?? '', error: null };
}

export interface Lookups {
  journeys: { id: string; name: string }[] | undefined;
  campaigns: { id: string; name: string }[] | undefined;
}

/** Journeys and the latest campaigns for the pickers; cached 5 minutes; a failure leaves plain inputs. */
export function usePickerLookups(): Lookups {
  const journeys = useQuery({
    queryKey: ['journeys', 'picker'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/journeys', { signal })),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const campaigns = useQuery({
    queryKey: ['campaigns', 'picker'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/campaigns', { params: { query: { page: 1 } }, signal })),
    staleTime: 5 * 60_000,
    retry: false,
  });
  return {
    journeys: journeys.data?.map((j) => ({ id: j.id, name: j.name })),
    campaigns: campaigns.data?.campaigns.map((c) => ({ id: c.id, name: c.name })),
  };
}
