// Request and response schemas of the team's suppression list (/v1/suppressions, Herald extension).
import { z } from 'zod';
import { cursorParam, limitParam } from '../platform/pagination.ts';
import { SUPPRESSION_REASONS, type SuppressionRow } from './suppression-queries.ts';

export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 50;
export const ADDRESS_MAX = 320;

/** An address as stored: lower-cased (the send path compares lower-cased addresses). */
const StoredAddress = z
  .string()
  .trim()
  .min(1)
  .max(ADDRESS_MAX)
  .transform((value) => value.toLowerCase());

export const SuppressionQuery = z.object({
  email: StoredAddress.optional().describe('only this address (case does not matter)'),
  limit: limitParam(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
  cursor: cursorParam,
});

export const SuppressionParams = z.object({ email: StoredAddress });

export const AddSuppressionBody = z.object({
  email: z
    .email()
    .max(ADDRESS_MAX)
    .transform((value) => value.toLowerCase())
    .describe('a bare address, at most 320 characters; kept lower-cased'),
  reason: z
    .enum(SUPPRESSION_REASONS)
    .default('MANUAL')
    .describe('MANUAL (the default), or HARD_BOUNCE or COMPLAINT to carry over a list kept elsewhere'),
});

export const Suppression = z
  .object({
    email: z.string(),
    reason: z.string().describe('HARD_BOUNCE, COMPLAINT or MANUAL'),
    emailId: z.string().nullable().describe('the email whose bounce or complaint added the address'),
    createdAt: z.string(),
  })
  .meta({ id: 'Suppression' });

export const SuppressionPage = z.object({ data: z.array(Suppression), nextCursor: z.string().nullable() });

export const RemovedSuppression = z.object({ email: z.string(), deleted: z.literal(true) });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const suppressionView = (row: SuppressionRow) => ({
  email: row.email,
  reason: row.reason,
  emailId: row.email_id,
  createdAt: row.created_at.toISOString(),
});
