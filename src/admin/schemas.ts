// Request and response schemas of the admin API (operator.md).
import { z } from 'zod';
import { API_KEY_KINDS } from '../platform/auth/api-keys.ts';
import { CURRENCIES } from '../platform/money.ts';
import { API_RATE_LIMIT_MAX, TEAM_PLANS } from '../platform/plans.ts';
import { serialId, serialIdParam } from '../platform/serial-id.ts';

export const TeamPlan = z.enum(TEAM_PLANS);
export const Currency = z.enum(CURRENCIES);
export const MemberRole = z.enum(['OWNER', 'ADMIN', 'MEMBER']);
export const ApiKeyKind = z.enum(API_KEY_KINDS);

export const TeamParams = z.object({ teamId: serialIdParam() });
export const MemberParams = TeamParams.extend({ memberId: serialIdParam() });
export const KeyParams = TeamParams.extend({ keyId: z.string().min(1).max(64) });

export const CreateTeamBody = z.object({
  name: z.string().trim().min(1).max(200),
  plan: TeamPlan.optional().describe('absent: HERALD_DEFAULT_PLAN (free unless the operator set it)'),
  currency: Currency.default('USD'),
  smsEnabled: z.boolean().default(false),
});

export const UpdateTeamBody = z
  .object({
    plan: TeamPlan,
    currency: Currency,
    smsEnabled: z.boolean(),
    apiRateLimit: z.number().int().min(1).max(API_RATE_LIMIT_MAX).describe("requests per second for the team's keys"),
    stripeCustomerId: z.string().min(1).max(255).nullable(),
    billingMethod: z
      .enum(['card', 'wallet', 'none'])
      .describe(
        'how the plan is paid; wallet on pro takes the first month from the wallet now (402 when it cannot pay)',
      ),
  })
  .partial();

export const Team = z.object({
  id: z.number().int(),
  name: z.string(),
  plan: TeamPlan,
  currency: Currency,
  smsEnabled: z.boolean(),
  apiRateLimit: z.number().int(),
  stripeCustomerId: z.string().nullable(),
  billingMethod: z.enum(['card', 'wallet', 'none']),
  createdAt: z.string(),
});

export const CreateMemberBody = z.object({
  email: z.email().max(320),
  name: z.string().trim().min(1).max(200).optional(),
  role: MemberRole,
});

export const UpdateMemberBody = z.object({ role: MemberRole });

export const Member = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  role: MemberRole,
});

export const CreateKeyBody = z.object({
  kind: ApiKeyKind,
  name: z.string().trim().min(1).max(200).optional(),
  memberId: serialId()
    .optional()
    .describe('the member who makes the key; absent: a key whose maker was never recorded'),
  domainId: serialId().optional().describe('limits the key to that domain'),
});

export const CreatedKey = z.object({
  id: z.string(),
  kind: ApiKeyKind,
  key: z.string().describe('the API key; shown only here'),
  name: z.string().nullable(),
  memberId: z.number().int().nullable(),
  domainId: z.number().int().nullable(),
});

export const KeySummary = CreatedKey.omit({ key: true }).extend({ hint: z.string(), createdAt: z.string() });

export const DeletedKey = z.object({ id: z.string(), deleted: z.literal(true) });

export const AdminError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const OutboxQuery = z.object({
  teamId: serialIdParam().optional().describe("only this team's messages"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const OutboxMessage = z.object({
  id: z.string(),
  teamId: z.number().int().nullable(),
  emailId: z.string().nullable(),
  envelope: z.object({ from: z.string(), to: z.string().array() }),
  subject: z.string().nullable(),
  createdAt: z.string(),
  raw: z.string().describe('the whole message as it would have been sent, DKIM signature included'),
});
