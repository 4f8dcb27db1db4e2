// Request and response schemas of the team's own member endpoints (/v1/team/members, Herald extension).
import { z } from 'zod';
import { serialIdParam } from '../platform/serial-id.ts';

export const MEMBER_EMAIL_MAX = 320;
export const MEMBER_NAME_MAX = 200;
export const MEMBER_ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;

const MemberRole = z
  .enum(MEMBER_ROLES)
  .describe('OWNER, ADMIN (both team admins) or MEMBER; only an owner may make or unmake an owner');

export const InviteMemberBody = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(MEMBER_EMAIL_MAX)
    .regex(z.regexes.email, 'must be an email address')
    .describe('the address the member signs in with, stored lower-cased; at most 320 characters'),
  name: z.string().trim().min(1).max(MEMBER_NAME_MAX).optional().describe('for people, 1 to 200 characters'),
  role: MemberRole,
});

export const ChangeMemberBody = z.object({ role: MemberRole });

export const MemberParams = z.object({ memberId: serialIdParam() });

export const TeamMember = z
  .object({
    id: z.number().int(),
    email: z.string(),
    name: z.string().nullable(),
    role: MemberRole,
    createdAt: z.string().describe('when the member was added to the team'),
  })
  .meta({ id: 'TeamMember' });

export const TeamMemberList = z.object({ data: z.array(TeamMember) });

export const RemovedMember = z.object({ id: z.number().int(), deleted: z.literal(true) });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
