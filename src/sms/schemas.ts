// Request and response schemas of /v1/sms (contract: SMS message, Endpoints › SMS, Limits).
import { isIP } from 'node:net';
import { z } from 'zod';
import { SMS_STATUSES } from '../db/schema-sms.ts';
import { CURRENCIES } from '../platform/money.ts';
import { cursorParam, limitParam } from '../platform/pagination.ts';

/** The end user's IP address a send may pass for risk scoring (SMS and one-time codes). */
export const ClientIp = z
  .string()
  .max(45)
  .refine((value) => isIP(value) !== 0, 'must be an IPv4 or IPv6 address')
  .optional()
  .describe("the end user's IP address, for risk scoring; only a keyed hash is stored");

const TEXT_MAX = 1_600;
export const SENDER_ID_MAX = 11;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 50;

export const SmsStatus = z.enum(SMS_STATUSES);

export const SendSmsBody = z.object({
  to: z.string().min(1).max(32).describe('E.164 phone number, e.g. +14155550123 (no spaces or dashes)'),
  text: z.string().min(1).max(TEXT_MAX).describe(`1 to ${TEXT_MAX} characters`),
  senderId: z
    .string()
    .min(1)
    .max(SENDER_ID_MAX)
    .optional()
    .describe(
      "at most 11 characters; must be approved for the team and the destination country; default: the team's approved sender ID for the destination country, else the shared one",
    ),
  clientIp: ClientIp,
});
export type SendSmsInput = z.infer<typeof SendSmsBody>;

export const SmsMessage = z
  .object({
    id: z.string(),
    to: z.string().describe('masked to the last four digits'),
    status: SmsStatus,
    segments: z.number().int(),
    charge: z.object({
      currency: z.enum(CURRENCIES),
      amount: z.string().describe('decimal string in the wallet currency, e.g. "0.05"'),
    }),
    reason: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'SmsMessage' });

export const SmsList = z.object({ data: z.array(SmsMessage), nextCursor: z.string().nullable() });

export const ListSmsQuery = z.object({
  cursor: cursorParam,
  limit: limitParam(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
  status: SmsStatus.optional(),
});

export const SmsIdParams = z.object({ id: z.string().min(1).max(64) });

export const RiskBody = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  risk: z.object({
    score: z.number().int(),
    level: z.string(),
    reasons: z.array(z.object({ code: z.string(), detail: z.string() })),
  }),
});

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
