// The wallet ledger: Date, Description, Amount ±, Balance after, Receipt; 50 rows a page, newest
// first, the row kind and the cursor in the URL (?type=, ?cursor=). A receipt opens over the page
// (?receipt=). The next page is not prefetched: billing reads are limited to 60 a minute per team.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

const PAGE_SIZE = 50;

export const ledgerTypes = {
  TOP_UP: 'Top-up',
  SMS_CHARGE: 'SMS charge',
  SMS_RELEASE: 'SMS refund',
  SENDER_ID_FEE: 'Sender ID fee',
  SENDER_ID_REFUND: 'Sender ID refund',
  ADJUSTMENT: 'Adjustment',
  REVERSAL: 'Reversal',
  PRO_MONTH: 'Pro month',
  PRO_UNITS: 'Pro units',
} as const;
type LedgerType = keyof typeof ledgerTypes;

export const ledgerTypeLabel = (type: string) => ledgerTypes[type as LedgerType] ?? type;

/** "+$10.00" into the wallet, "-$2.00" out: the API's formatted amount carries the minus already. */
export const signed = (minor: number, formatted: string) => (minor > 0 ? `+${formatted}` : formatted);

export function ReceiptButton({ reference }: { reference: string | null }) {
  const [, setReceipt] = useUrlParam('receipt');
  if (!reference) return <span className="text-fg-2">—</span>;
  return (
    <Button variant="ghost" className="-ml-2 font-mono text-[12px]" onClick={() => setReceipt(reference)}>
      <span className="sr-only">Receipt </span>
      {reference}
    </Button>
  );
}

export function BillingLedger() {
  const [typeParam, setType] = useUrlParam('type');
  const [cursor, setCursor] = useUrlParam('cursor');
  const type = typeParam && typeParam in ledgerTypes ? (typeParam as LedgerType) : undefined;
  const ledger = useQuery({
    queryKey: ['billing', 'transactions', type ?? null, cursor],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/billing/transactions', {
          params: { query: { limit: PAGE_SIZE, type, cursor: cursor ?? undefined } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const rows = ledger.data?.data ?? [];
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <label htmlFor="ledger-type" className="text-[13px] text-fg-2">
          Kind
        </label>
        <select
          id="ledger-type"
          className="h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10"
          value={type ?? ''}
          onChange={(e) => setType(e.target.value, ['cursor'])}
        >
          <option value="">Every kind</option>
          {Object.entries(ledgerTypes).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {ledger.isError ? (
        <ErrorState error={ledger.error} onRetry={() => void ledger.refetch()} />
      ) : ledger.data && rows.length === 0 ? (
        <EmptyState title={type ? `No ${ledgerTypeLabel(type).toLowerCase()} rows` : 'No wallet activity yet'}>
          {type
            ? 'Choose every kind to see the whole ledger.'
            : 'The operator tops the wallet up; SMS, sender IDs and Pro months paid from it appear here, each with the balance after it.'}
        </EmptyState>
      ) : (
        <Table label="Ledger">
          <colgroup>
            <col className="w-[120px]" />
            <col />
            <col className="w-[110px]" />
            <col className="hidden w-[130px] sm:table-column" />
            <col className="hidden w-[190px] md:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>Date</Th>
              <Th>Description</Th>
              <Th className="text-right">Amount</Th>
              <Th className="hidden text-right sm:table-cell">Balance after</Th>
              <Th className="hidden md:table-cell">Receipt</Th>
            </tr>
          </thead>
          <tbody aria-busy={ledger.isFetching}>
            {ledger.isPending ? (
              <SkeletonRows rows={5} columns={5} />
            ) : (
              rows.map((row) => (
                <tr key={row.id}>
                  <Td className="text-fg-2">
                    <Time value={row.createdAt} />
                  </Td>
                  <Td title={row.reference}>
                    <span className="font-medium">{ledgerTypeLabel(row.type)}</span>
                    {row.customerDescription ? <span className="text-fg-2"> · {row.customerDescription}</span> : null}
                  </Td>
                  <Td className="text-right tabular">{signed(row.amountMinor, row.amountFormatted)}</Td>
                  <Td className="hidden text-right tabular sm:table-cell">{row.balanceAfterFormatted}</Td>
                  <Td className="hidden md:table-cell">
                    <ReceiptButton reference={row.receiptReference} />
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <Pager cursor={cursor} nextCursor={ledger.data?.nextCursor} onCursor={setCursor} />
    </>
  );
}
