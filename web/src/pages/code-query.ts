// The Codes page's reads: the team's codes through GET /v1/verify (newest first, cursor-paged,
// filtered by status, channel and risk level, the filters and the cursor in the URL) and one code
// through GET /v1/verify/{id} (a code opened by id that the page shown does not hold).
import { api, must } from '../api/client.ts';
import { isNotFound } from '../ui/states.tsx';
import type { Verification } from './sms-format.ts';

export const PAGE_SIZE = 50;

export const CODE_STATUSES = ['pending', 'verified', 'expired', 'failed', 'refused'] as const;
export const CODE_CHANNELS = ['email', 'sms'] as const;
export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;

export interface CodeFilters {
  status?: (typeof CODE_STATUSES)[number];
  channel?: (typeof CODE_CHANNELS)[number];
  risk?: (typeof RISK_LEVELS)[number];
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value);

/** The filters in the URL (`status`, `channel`, `risk`); an unknown value is no filter. */
export function codeFiltersOf(params: URLSearchParams): CodeFilters {
  return {
    status: oneOf(CODE_STATUSES, params.get('status')),
    channel: oneOf(CODE_CHANNELS, params.get('channel')),
    risk: oneOf(RISK_LEVELS, params.get('risk')),
  };
}

export const statusWords: Record<(typeof CODE_STATUSES)[number], string> = {
  pending: 'Pending',
  verified: 'Verified',
  expired: 'Expired',
  failed: 'Failed',
  refused: 'Refused',
};
export const channelWords: Record<(typeof CODE_CHANNELS)[number], string> = { email: 'Email', sms: 'SMS' };
export const riskWords: Record<(typeof RISK_LEVELS)[number], string> = { LOW: 'Low', MEDIUM: 'Medium', HIGH: 'High' };

/** A code whose SMS may still move (queued, or sent and awaiting its report): the page reads again. */
export const codeMoving = (v: Verification) =>
  v.status === 'pending' && (v.deliveryStatus === 'queued' || v.deliveryStatus === 'sent');

export function codeListQuery(filters: CodeFilters, cursor: string | undefined) {
  const { status, channel, risk } = filters;
  return {
    queryKey: ['verify', 'list', status ?? null, channel ?? null, risk ?? null, cursor ?? null],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(
        api.GET('/api/v1/verify', {
          params: { query: { status, channel, riskLevel: risk, cursor, limit: PAGE_SIZE } },
          signal,
        }),
      ),
  };
}

export function verificationQuery(id: string) {
  return {
    queryKey: ['verify', 'one', id],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(api.GET('/api/v1/verify/{id}', { params: { path: { id } }, signal })),
    retry: (count: number, error: unknown) => !isNotFound(error) && count < 2,
    refetchInterval: (query: { state: { data?: Verification } }) =>
      query.state.data && codeMoving(query.state.data) ? 5000 : false,
  };
}
