// The live count of the definition as edited: POST …/segments/preview (Herald extension) 500 ms after
// the last edit. The definition's JSON is the query key, so an edit makes a new query and the stale
// request, whose AbortSignal openapi-fetch holds, is aborted by TanStack Query once nothing observes
// it. The previous answer stays on screen (marked as updating) until the new one arrives.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiFailure, must } from '../api/client.ts';
import { placeErrors, type Definition, type PlacedError } from './segment-definition.tsx';

export const PREVIEW_DEBOUNCE_MS = 500;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A 400 (the definition as the API judges it) is part of editing, not a failure to retry. */
const isRefusal = (error: unknown) => error instanceof ApiFailure && error.status === 400;

export function useSegmentPreview({
  bookId,
  segmentId,
  definition,
}: {
  bookId: string;
  /** A saved segment's id: its definition is checked as its update would be. */
  segmentId: string | null;
  definition: Definition;
}) {
  const typed = JSON.stringify(definition);
  const settled = useDebounced(typed, PREVIEW_DEBOUNCE_MS);
  const enabled = definition.conditions.length > 0;
  const query = useQuery({
    queryKey: ['segments', 'preview', bookId, segmentId, settled],
    queryFn: ({ signal }) =>
      must(
        api.POST('/api/v1/contactBooks/{contactBookId}/segments/preview', {
          params: { path: { contactBookId: bookId } },
          body: { definition: JSON.parse(settled) as Definition, ...(segmentId ? { segmentId } : {}) },
          signal,
        }),
      ),
    enabled,
    placeholderData: (previous) => previous,
    retry: (failures, error) => !isRefusal(error) && failures < 2,
    // Live while the page is open, as the saved segment is.
    refetchInterval: 30_000,
    refetchIntervalInBackground: false,
  });
  const refused = isRefusal(query.error);
  return {
    /** No condition: nothing to count (the builder says a segment needs one). */
    enabled,
    /** The answer shown is not yet of the definition as typed. */
    updating: enabled && (typed !== settled || query.isFetching),
    data: enabled ? query.data : undefined,
    /** The API's 400, placed on the conditions it names. */
    errors: refused ? placeErrors((query.error as ApiFailure).message) : ([] as PlacedError[]),
    /** Anything else that failed (network, 5xx, 404): shown with Retry. */
    failure: enabled && query.isError && !refused ? query.error : null,
    pending: enabled && query.isPending,
    retry: () => void query.refetch(),
  };
}

export type SegmentPreview = ReturnType<typeof useSegmentPreview>;
