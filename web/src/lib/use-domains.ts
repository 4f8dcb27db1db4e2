// The team's domains: a small lookup fetched once and cached for 5 minutes (names in lists, filters).
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';

export function useDomains() {
  return useQuery({
    queryKey: ['domains'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/domains', { signal })),
    staleTime: 5 * 60_000,
  });
}
