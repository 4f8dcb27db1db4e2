// Request and response schemas of /v1/verify (contract: Verification, Endpoints › One-time codes,
// Limits › one-time code). Rules that depend on the channel are checked in send-email.ts and send-sms.ts.
import { z } from 'zod';
import { VERIFICATION_STATUSES } from '../db/schema-verify.ts';
import { cursorParam, limitParam } from '../platform/pagination.ts';
import { ClientIp } from '../sms/index.ts';

export const TO_MIN = 3;
export const TO_MAX = 320;
export const CODE_LENGTH = { min: 4, max: 8, default: 6 } as const;
export const EXPIRES_IN = { min: 60, max: 1_800, default: 600 } as const;
export const APP_NAME_MAX = 60;
export const SUBJECT_MAX = 998;
export const SENDER_ID_MAX = 11;
/** Wrong guesses allowed per code (Twilio Verify, Ory: 5). */
export const ATTEMPTS = 5;
export const CHECK_REASONS = ['wrong_code', 'expired', 'already_used', 'too_many_attempts', 'refused'] as const;
export type CheckReason = (typeof CHECK_REASONS)[number];

const oneLine = /^[^\r\n]*$/;

export const SendVerificationBody = z.object({
  to: z
    .string()
    .min(TO_MIN)
    .max(TO_MAX)
    .describe(`${TO_MIN} to ${TO_MAX} characters: an email address, or for channel sms an E.164 number`),
  channel: z.enum(['email', 'sms']).default('email'),
  senderId: z.string().min(1).max(SENDER_ID_MAX).optional().describe('sms only; at most 11 characters'),
  from: z
    .string()
    .min(3)
    .max(SUBJECT_MAX)
    .optional()
    .describe(
      "email only; `address` or `Name <address>` on a verified domain of the team; default no-reply@ the team's first verified domain",
    ),
  appName: z
    .string()
    .min(1)
    .max(APP_NAME_MAX)
    .regex(oneLine, 'must be one line')
    .optional()
    .describe('at most 60 characters; default the team name; required for sms'),
  codeLength: z.number().int().min(CODE_LENGTH.min).max(CODE_LENGTH.max).default(CODE_LENGTH.default),
  expiresIn: z
    .number()
    .int()
    .min(EXPIRES_IN.min)
    .max(EXPIRES_IN.max)
    .default(EXPIRES_IN.default)
    .describe('seconds, 60 to 1800 (default 600)'),
  templateId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('email only; uses {{code}}, {{appName}}, {{expiresMinutes}}'),
  subject: z
    .string()
    .min(1)
    .max(SUBJECT_MAX)
    .regex(oneLine, 'must be one line')
    .optional()
    .describe('email only; default `{{appName}} verification code: {{code}}`'),
  clientIp: ClientIp,
});
export type SendVerificationInput = z.infer<typeof SendVerificationBody>;

export const CheckVerificationBody = z.object({
  id: z.string().min(1).max(64),
  code: z.string().min(1).max(32).describe('the code the user typed'),
});

export const VerificationParams = z.object({ id: z.string().min(1).max(64) });

export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;

const Risk = z.object({
  score: z.number().int().describe('summed signal weights, capped at 100'),
  level: z.enum(RISK_LEVELS),
  reasons: z.array(z.object({ code: z.string(), detail: z.string() })),
});

export const Verification = z
  .object({
    id: z.string(),
    to: z.string(),
    status: z.enum(VERIFICATION_STATUSES),
    expiresAt: z.string(),
    attemptsRemaining: z.number().int(),
    emailId: z.string().nullable(),
    channel: z.enum(['email', 'sms']),
    providerMessageId: z.string().nullable(),
    deliveryStatus: z.enum(['queued', 'sent', 'delivered', 'failed', 'rejected']).nullable(),
    deliveryReason: z.string().nullable(),
    risk: Risk,
    verified: z.boolean(),
    reason: z.enum(CHECK_REASONS).optional(),
    createdAt: z.string(),
  })
  .meta({ id: 'Verification' });

// GET /v1/verify, a Herald extension: the team's codes, newest first, as GET /v1/verify/{id} shows them.
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 50;

export const ListVerificationsQuery = z.object({
  cursor: cursorParam,
  limit: limitParam(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
  status: z
    .enum(VERIFICATION_STATUSES)
    .optional()
    .describe('the status as GET /v1/verify/{id} shows it (a pending code past expiresAt stays pending until checked)'),
  channel: z.enum(['email', 'sms']).optional(),
  riskLevel: z.enum(RISK_LEVELS).optional(),
});

export const VerificationList = z.object({ data: z.array(Verification), nextCursor: z.string().nullable() });

export const RiskRefusedBody = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  risk: Risk,
  id: z.string().describe('the refused verification; GET /v1/verify/{id} shows the signals that fired'),
});

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
