// Receipts (top-ups, sender ID fees, Pro months and units): Date, Receipt, Invoice number, Amount;
// the cursor in the URL. A receipt opens in a dialog from here or the ledger (?receipt=); a
// reference the team does not have shows the not-found state, as another team's does.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { api, must } from '../api/client.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { CopyButton } from '../ui/copy-button.tsx';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { ReceiptButton } from './billing-ledger.tsx';

const PAGE_SIZE = 50;

export function BillingReceipts() {
  const [cursor, setCursor] = useUrlParam('cursor');
  const receipts = useQuery({
    queryKey: ['billing', 'receipts', cursor],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/billing/receipts', {
          params: { query: { limit: PAGE_SIZE, cursor: cursor ?? undefined } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const rows = receipts.data?.data ?? [];
  if (receipts.isError) return <ErrorState error={receipts.error} onRetry={() => void receipts.refetch()} />;
  if (receipts.data && rows.length === 0 && !receipts.data.nextCursor) {
    return (
      <EmptyState title="No receipts yet">
        Top-ups, sender ID fees and Pro months paid from the wallet each get a receipt.
      </EmptyState>
    );
  }
  return (
    <>
      <Table label="Receipts">
        <colgroup>
          <col className="w-[120px]" />
          <col />
          <col className="hidden w-[120px] sm:table-column" />
          <col className="w-[110px]" />
          <col className="hidden w-[190px] md:table-column" />
        </colgroup>
        <thead>
          <tr>
            <Th>Date</Th>
            <Th>Receipt</Th>
            <Th className="hidden sm:table-cell">Invoice</Th>
            <Th className="text-right">Amount</Th>
            <Th className="hidden md:table-cell">Reference</Th>
          </tr>
        </thead>
        <tbody aria-busy={receipts.isFetching}>
          {receipts.isPending ? (
            <SkeletonRows rows={4} columns={5} />
          ) : (
            rows.map((r) => (
              <tr key={r.reference}>
                <Td className="text-fg-2">
                  <Time value={r.createdAt} />
                </Td>
                <Td title={r.description}>{r.title}</Td>
                <Td className="hidden font-mono text-[12px] sm:table-cell">{r.invoiceNumber ?? '—'}</Td>
                <Td className="text-right tabular">{`${r.direction === 'in' ? '+' : '-'}${r.amountFormatted}`}</Td>
                <Td className="hidden md:table-cell">
                  <ReceiptButton reference={r.reference} />
                </Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <Pager cursor={cursor} nextCursor={receipts.data?.nextCursor} onCursor={setCursor} />
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-line py-2 text-[13px]">
      <dt className="text-fg-2">{label}</dt>
      <dd className="text-right tabular">{children}</dd>
    </div>
  );
}

function ReceiptBody({ reference }: { reference: string }) {
  const receipt = useQuery({
    queryKey: ['billing', 'receipt', reference],
    queryFn: ({ signal }) =>
      must(api.GET('/api/v1/billing/receipts/{reference}', { params: { path: { reference } }, signal })),
    retry: false,
  });
  if (receipt.isPending) return <Loading label="Loading the receipt" />;
  if (receipt.isError) {
    return isNotFound(receipt.error) ? (
      <p className="mt-3 text-[14px] text-fg-2">This receipt does not exist in this team.</p>
    ) : (
      <ErrorState error={receipt.error} onRetry={() => void receipt.refetch()} />
    );
  }
  const r = receipt.data;
  return (
    <>
      <p className="mt-1 text-[13px] text-fg-2">{r.description}</p>
      <dl className="mt-4">
        <Fact label="Amount">
          <span className="text-[16px] font-semibold">{`${r.direction === 'in' ? '+' : '-'}${r.amountFormatted}`}</span>
        </Fact>
        <Fact label="Balance after">{r.balanceAfterFormatted}</Fact>
        <Fact label="Date">
          <Time value={r.createdAt} mode="absolute" />
        </Fact>
        <Fact label="Team">{r.teamName}</Fact>
        {r.invoiceNumber ? <Fact label="Invoice number">{r.invoiceNumber}</Fact> : null}
        <Fact label="Reference">
          <span className="inline-flex items-center gap-1 font-mono text-[12px]">
            {r.reference}
            <CopyButton value={r.reference} label="Copy receipt reference" />
          </span>
        </Fact>
      </dl>
    </>
  );
}

/** The receipt named by ?receipt=, over whichever tab is open. */
export function ReceiptPanel() {
  const [reference, setReference] = useUrlParam('receipt');
  if (!reference) return null;
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : setReference(null))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-32px)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-line bg-bg p-5 shadow-xl"
        >
          <div className="flex items-start justify-between gap-2">
            <Dialog.Title className="text-[16px] leading-6 font-semibold">Receipt</Dialog.Title>
            <Dialog.Close
              className="inline-flex size-8 items-center justify-center rounded-md hover:bg-muted"
              aria-label="Close"
            >
              <X aria-hidden="true" size={16} />
            </Dialog.Close>
          </div>
          <ReceiptBody reference={reference} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
