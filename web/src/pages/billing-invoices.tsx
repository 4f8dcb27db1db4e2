// Invoices from the card processor (Stripe), the latest 12: Number, Date, Amount due, Paid, Status.
// Empty for a team never billed by card: Pro months paid from the wallet are receipts.
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import type { components } from '../api/schema';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { Tag, type Tone } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

type Invoice = components['schemas']['Invoice'];

/**
 * The Invoice object has no *Formatted field (its amounts are Stripe's, in the currency's minor
 * unit), so these are formatted here, with the currency's own number of decimals.
 */
function money(minor: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minor / 10 ** digits);
  } catch {
    return `${minor} ${currency}`;
  }
}

/** Stripe's invoice states as a word and a tone (the word carries the meaning, not the colour). */
const invoiceTones: Record<string, Tone> = {
  paid: 'success',
  open: 'info',
  draft: 'neutral',
  void: 'neutral',
  uncollectible: 'danger',
};

function InvoiceStatus({ status }: { status: string | null }) {
  if (!status) return <span className="text-fg-2">—</span>;
  const word = status.charAt(0).toUpperCase() + status.slice(1);
  return <Tag tone={invoiceTones[status] ?? 'neutral'}>{word}</Tag>;
}

export function BillingInvoices() {
  const invoices = useQuery({
    queryKey: ['billing', 'invoices'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/invoices', { signal })),
    retry: false,
  });
  if (invoices.isError) return <ErrorState error={invoices.error} onRetry={() => void invoices.refetch()} />;
  if (invoices.data?.data.length === 0) {
    return (
      <EmptyState title="No invoices">
        Invoices come from Stripe when the team pays Pro by card. Pro months paid from the wallet are receipts.
      </EmptyState>
    );
  }
  return (
    <Table label="Invoices">
      <colgroup>
        <col />
        <col className="w-[120px]" />
        <col className="w-[110px]" />
        <col className="hidden w-[110px] sm:table-column" />
        <col className="hidden w-[120px] sm:table-column" />
      </colgroup>
      <thead>
        <tr>
          <Th>Number</Th>
          <Th>Date</Th>
          <Th className="text-right">Amount due</Th>
          <Th className="hidden text-right sm:table-cell">Paid</Th>
          <Th className="hidden sm:table-cell">Status</Th>
        </tr>
      </thead>
      <tbody>
        {invoices.isPending ? (
          <SkeletonRows rows={3} columns={5} />
        ) : (
          invoices.data.data.map((invoice: Invoice) => (
            <tr key={invoice.id}>
              <Td className="font-mono text-[12px]" title={invoice.id}>
                {invoice.number ?? invoice.id}
              </Td>
              <Td className="text-fg-2">
                <Time value={invoice.createdAt} />
              </Td>
              <Td className="text-right tabular">{money(invoice.amountDue, invoice.currency)}</Td>
              <Td className="hidden text-right tabular sm:table-cell">{money(invoice.amountPaid, invoice.currency)}</Td>
              <Td className="hidden sm:table-cell">
                <InvoiceStatus status={invoice.status} />
              </Td>
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}
