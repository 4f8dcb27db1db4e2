// Request and response schemas of the admin wallet and sender ID operations (operator.md).
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { WalletTransaction } from '../wallet/index.ts';
import { TeamParams } from './schemas.ts';

// JSON integers only (no strings, no fractions); z.number().int() also refuses unsafe integers.
const positiveMinor = z.number().int().min(1).describe('integer minor units (cents, kobo) of the wallet currency');

export const TopUpBody = z.object({
  amountMinor: positiveMinor,
  reference: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('unique per team: the same reference again returns the first row and adds nothing'),
  description: z.string().trim().min(1).max(500).optional(),
});

export const AdjustmentBody = z.object({
  amountMinor: z
    .number()
    .int()
    .refine((value) => value !== 0, 'must not be 0')
    .describe('signed integer minor units: positive credits the wallet, negative debits it'),
  description: z.string().trim().min(1).max(500),
});

export const ReversalBody = z.object({
  transactionId: z.string().min(1).max(64).describe('a top-up or adjustment of this team'),
  description: z.string().trim().min(1).max(500).optional(),
});

const ALPHANUMERIC_SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

/** An E.164 number exactly as written (`+` and digits) that libphonenumber's full metadata accepts. */
function isE164(value: string): boolean {
  if (!/^\+[1-9]\d{1,14}$/.test(value)) return false;
  const phone = parsePhoneNumberFromString(value);
  return phone !== undefined && phone.isValid() && phone.number === value;
}

export const CreateSenderIdBody = z.object({
  senderId: z
    .string()
    .refine(
      (value) => ALPHANUMERIC_SENDER.test(value) || isE164(value),
      'must be 1 to 11 letters, digits and spaces with at least one letter, or a phone number in E.164',
    ),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166 alpha-2 country code')
    .transform((value) => value.toUpperCase())
    .refine((value) => isSupportedCountry(value), 'is not a country code SMS can be sent to'),
  feeMinor: z.number().int().min(0).default(0).describe('charged to the wallet at once'),
});

// Optional: a DELETE without a body keeps the fee.
export const DeleteSenderIdBody = z
  .object({ refund: z.boolean().default(false).describe('give the fee back to the wallet') })
  .nullish();

export const SenderIdParams = TeamParams.extend({ id: z.string().min(1).max(64) });

export const SenderId = z.object({
  id: z.string(),
  senderId: z.string(),
  country: z.string(),
  status: z.literal('APPROVED'),
  createdAt: z.string(),
});

export const DeletedSenderId = z.object({ id: z.string(), deleted: z.literal(true) });

export const Wallet = z.object({
  currency: z.string().nullable().describe('null until the first top-up or adjustment opens the wallet'),
  balanceMinor: z.number().int(),
  balanceFormatted: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

export const WalletTransactionsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
export const WalletTransactionsPage = z.object({ currency: z.string().nullable(), data: WalletTransaction.array() });
