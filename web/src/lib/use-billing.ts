// What the billing page's parts share: the plan read and the wallet balance (the newest ledger row's
// balance; Overview reads the same query), and their keys for invalidation after a plan change.
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import type { components } from '../api/schema';

export type Subscription = components['schemas']['BillingSubscription'];

export const billingKey = ['billing'] as const;
export const subscriptionKey = ['billing', 'subscription'] as const;
export const balanceKey = ['billing', 'transactions', 'latest'] as const;

export function useBalance() {
  return useQuery({
    queryKey: balanceKey,
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/transactions', { params: { query: { limit: 1 } }, signal })),
  });
}

export function useSubscription(options: { pollMs?: (data: Subscription | undefined) => number | false } = {}) {
  return useQuery({
    queryKey: subscriptionKey,
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/subscription', { signal })),
    refetchInterval: options.pollMs ? (query) => options.pollMs!(query.state.data) : false,
  });
}
