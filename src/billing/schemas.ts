// Request and response schemas of the billing reads (contract: Billing objects, Endpoints › Billing).
import { z } from 'zod';
import { WALLET_TRANSACTION_TYPES, WalletTransaction } from '../wallet/index.ts';
import { cursorParam, limitParam } from '../platform/pagination.ts';

export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 20;

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** ISO 8601: a date (midnight UTC) or a date-time with a zone offset. */
const isoInstant = (field: string) =>
  z
    .string()
    .max(64)
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value) &&
        !Number.isNaN(Date.parse(value)),
      `${field} must be an ISO 8601 date or date-time with a zone, e.g. 2026-01-31T00:00:00Z`,
    )
    .transform((value) => new Date(value));

export const LedgerQuery = z
  .object({
    type: z.enum(WALLET_TRANSACTION_TYPES).optional().describe('one row kind'),
    from: isoInstant('from').optional().describe('inclusive, ISO 8601'),
    to: isoInstant('to').optional().describe('exclusive, ISO 8601'),
    cursor: cursorParam,
    limit: limitParam(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'to must not be before from',
    path: ['to'],
  });
export type LedgerQueryInput = z.infer<typeof LedgerQuery>;

export const TransactionList = z.object({
  currency: z.string().nullable(),
  data: z.array(WalletTransaction),
  nextCursor: z.string().nullable(),
});

export const Receipt = z
  .object({
    invoiceNumber: z.string().nullable().describe('set on a Pro month paid from the wallet'),
    reference: z.string(),
    type: z.string(),
    title: z.string(),
    description: z.string(),
    amountMinor: z
      .number()
      .int()
      .describe('negative for money that left the wallet, positive for money that entered it'),
    amountFormatted: z.string().describe('without sign'),
    direction: z.enum(['in', 'out']),
    balanceAfterMinor: z.number().int(),
    balanceAfterFormatted: z.string(),
    currency: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Receipt' });

export const ReceiptWithTeam = Receipt.extend({ teamName: z.string() });

export const ReceiptList = z.object({
  currency: z.string().nullable(),
  data: z.array(Receipt),
  nextCursor: z.string().nullable(),
});

export const ReceiptParams = z.object({ reference: z.string().min(1).max(64) });

export const Invoice = z
  .object({
    id: z.string().describe("the card processor's own id, prefix in_"),
    number: z.string().nullable(),
    createdAt: z.string(),
    amountDue: z.number().int().describe('cents'),
    amountPaid: z.number().int().describe('cents'),
    currency: z.string(),
    status: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });

export const InvoiceList = z.object({ data: z.array(Invoice) });

export const InvoiceParams = z.object({ id: z.string().min(1).max(255) });
