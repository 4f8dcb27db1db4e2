// Request and response schemas of the dashboard's session endpoints (/v1/session…, tag `session`).
import { z } from 'zod';

const EMAIL_MAX = 320;

const EmailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX)
  .regex(z.regexes.email, 'must be an email address')
  .describe("a member's address, compared lower-cased; at most 320 characters");

export const SignInRequestBody = z.object({ email: EmailAddress });

export const CreateSessionBody = z.object({
  token: z.string().min(1).max(200).optional().describe('the token of a sign-in link, `/sign-in/{token}`'),
  email: EmailAddress.optional().describe('with `code`: the address the code was sent to'),
  code: z
    .string()
    .regex(/^\d{6}$/, 'must be the 6-digit code of the sign-in email')
    .optional()
    .describe('with `email`: the 6-digit code of the sign-in email'),
});

const Role = z.enum(['OWNER', 'ADMIN', 'MEMBER']);
const Plan = z.enum(['free', 'pro']);

export const SessionTeam = z
  .object({
    id: z.number().int(),
    name: z.string(),
    role: Role.describe("the signed-in member's role in this team"),
    plan: Plan,
  })
  .meta({ id: 'SessionTeam' });

export const Session = z
  .object({
    member: z.object({
      id: z.number().int().describe("the address's member id in the chosen team"),
      email: z.string(),
    }),
    teams: z.array(SessionTeam).describe('every team the address is a member of, by id'),
    team: SessionTeam.describe('the team requests act in: X-Herald-Team, else the first of `teams`'),
    csrfToken: z.string().describe('send as X-CSRF-Token with every POST, PUT, PATCH and DELETE made with the cookie'),
    instance: z.object({
      mailDomain: z.string().describe("HERALD_MAIL_DOMAIN, Herald's own sending domain"),
      mailTransport: z.enum(['log', 'smtp', 'direct']).describe('HERALD_MAIL_TRANSPORT'),
      version: z.string(),
      publicUrl: z.string().describe('HERALD_PUBLIC_URL'),
      apiPrefix: z.string().describe('HERALD_API_PREFIX'),
    }),
  })
  .meta({ id: 'Session' });

export const Accepted = z.object({});

export const SignedOut = z.object({});

export const SessionSummary = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().describe('to within a minute'),
  userAgent: z.string().nullable().describe('the browser that signed in, first 200 characters'),
  current: z.boolean().describe('the session of this request'),
});

export const SessionList = z.object({ data: z.array(SessionSummary) });

export const SessionParams = z.object({ id: z.string().min(1).max(64) });

export const RevokedSession = z.object({ id: z.string(), deleted: z.literal(true) });

export const PlanChangeBody = z.object({
  plan: Plan,
  method: z
    .enum(['wallet', 'card'])
    .optional()
    .describe(
      'how Pro is paid: wallet (the first month now, from the wallet) or card (a Stripe Checkout to open). Needed for pro',
    ),
});

export const CardCheckout = z
  .object({
    checkoutUrl: z
      .string()
      .describe(
        "Stripe Checkout's page for the Pro subscription: send the browser there; Stripe sends it back to /billing",
      ),
  })
  .meta({ id: 'CardCheckout' });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
