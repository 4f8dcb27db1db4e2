// The contract's Authentication section as one table. Every route declares one of these access
// levels; platform/auth/plugin.ts enforces it. Order of checks: key kind (SCOPE_DENIED), then
// domain limit (DOMAIN_PINNED), then the maker's role today (FORBIDDEN). A dashboard session is
// judged as a full access key made by its member in the chosen team (session-auth.ts); the session
// levels admit nothing else.
import type { ApiKeyKind } from '../../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { Principal } from './api-keys.ts';

interface AccessRule {
  /** Key kinds accepted; null: no key is asked for (a public route). */
  kinds: readonly ApiKeyKind[] | null;
  /** May a key limited to one domain call it? ('deny': the operation spans domains.) */
  domainLimited: 'allow' | 'deny';
  /** Must the key's maker be a team admin (OWNER or ADMIN) today? */
  makerMustBeAdmin: boolean;
  /** Only a dashboard session (the herald_session cookie) may call it; `kinds` is then empty. */
  sessionOnly?: true;
  summary: string;
}

export const accessPolicy = {
  // Send email, batch, get one email, verify send/check/get, enrol into a journey.
  send: {
    kinds: ['full', 'sending'],
    domainLimited: 'allow',
    makerMustBeAdmin: false,
    summary: 'sending access or full access key',
  },
  // Other endpoints labelled FULL.
  full: { kinds: ['full'], domainLimited: 'allow', makerMustBeAdmin: false, summary: 'full access key' },
  // Webhook list: full access; a read only key can list; domain-limited keys may not (webhooks carry every domain's events).
  webhookList: {
    kinds: ['full', 'readonly'],
    domainLimited: 'deny',
    makerMustBeAdmin: false,
    summary: 'full access or read only key, not limited to a domain',
  },
  // Webhook read and call log reads.
  webhookRead: {
    kinds: ['full'],
    domainLimited: 'deny',
    makerMustBeAdmin: false,
    summary: 'full access key, not limited to a domain',
  },
  // Webhook create, update, status, delete, test, rotate-secret.
  webhookManage: {
    kinds: ['full'],
    domainLimited: 'deny',
    makerMustBeAdmin: true,
    summary: 'full access key made by a team admin, not limited to a domain',
  },
  // Webhook call retry: any full access key, not only an admin's.
  webhookRetry: {
    kinds: ['full'],
    domainLimited: 'deny',
    makerMustBeAdmin: false,
    summary: 'full access key, not limited to a domain',
  },
  // Billing transactions, receipts, invoices, subscription.
  billingRead: {
    kinds: ['full', 'readonly'],
    domainLimited: 'deny',
    makerMustBeAdmin: true,
    summary: 'full access or read only key made by a team admin, not limited to a domain',
  },
  // Billing usage and pricing, including domain-limited keys.
  billingUsage: {
    kinds: ['full', 'readonly', 'live_ai'],
    domainLimited: 'allow',
    makerMustBeAdmin: false,
    summary: 'full access, read only or live AI key',
  },
  // Herald extension: the audit log of billing reads (GET /v1/audit-log), a full access key made by a team admin.
  auditLog: {
    kinds: ['full'],
    domainLimited: 'deny',
    makerMustBeAdmin: true,
    summary: 'full access key made by a team admin, not limited to a domain',
  },
  // Herald extension: the team's API keys and suppression list, read (GET /v1/api-keys,
  // GET /v1/suppressions). The billing reads' FULL-admin rule, as the contract's tables let a read
  // only key read what a full access key changes; not domain-limited (both lists span every domain).
  teamAdminRead: {
    kinds: ['full', 'readonly'],
    domainLimited: 'deny',
    makerMustBeAdmin: true,
    summary: 'full access or read only key made by a team admin, not limited to a domain',
  },
  // Herald extension: creating and revoking API keys, adding and removing suppressions. A key made
  // by a member, or limited to one domain, must not mint a key with more power than its own.
  teamAdminManage: {
    kinds: ['full'],
    domainLimited: 'deny',
    makerMustBeAdmin: true,
    summary: 'full access key made by a team admin, not limited to a domain',
  },
  // Herald extension: campaign lists, reads and recipients; a domain-limited key sees its domain's.
  campaignRead: {
    kinds: ['full', 'readonly'],
    domainLimited: 'allow',
    makerMustBeAdmin: false,
    summary: 'full access or read only key',
  },
  // No key: tracking pixel and clicks, unsubscribe and confirmation pages, health, metrics, the API
  // reference, provider callbacks (which check their own signatures). Routes under the API prefix
  // must say so: a route that declares nothing fails start-up (plugin.ts).
  public: { kinds: null, domainLimited: 'allow', makerMustBeAdmin: false, summary: 'no API key' },
  // Herald extension (issue 45): the dashboard's own session (GET and DELETE /v1/session, its list
  // and revocations). A session, never a key: a key has no session to read or end.
  session: {
    kinds: [],
    sessionOnly: true,
    domainLimited: 'deny',
    makerMustBeAdmin: false,
    summary: 'a dashboard session (the herald_session cookie)',
  },
  // Herald extension (issue 45): the team's plan changed from the dashboard (PUT /v1/session/plan),
  // by a signed-in team admin only.
  sessionAdmin: {
    kinds: [],
    sessionOnly: true,
    domainLimited: 'deny',
    makerMustBeAdmin: true,
    summary: 'a dashboard session of a team admin (the herald_session cookie)',
  },
  // Herald extension: any valid key (GET /v1/whoami).
  anyKey: {
    kinds: ['full', 'readonly', 'sending', 'sandbox', 'live_ai'],
    domainLimited: 'allow',
    makerMustBeAdmin: false,
    summary: 'any API key',
  },
} as const satisfies Record<string, AccessRule>;

export type AccessLevel = keyof typeof accessPolicy;

const kindNames: Record<ApiKeyKind, string> = {
  full: 'full access',
  readonly: 'read only',
  sending: 'sending access',
  sandbox: 'sandbox',
  live_ai: 'live AI',
};

/** Whether only a dashboard session may call routes of this level (no key). */
export function isSessionOnly(level: AccessLevel): boolean {
  return (accessPolicy[level] as AccessRule).sessionOnly === true;
}

function isTeamAdmin(role: Principal['makerRole']): boolean {
  return role === 'OWNER' || role === 'ADMIN';
}

/** Throws the contract's 403 when the principal may not use an operation of this level. */
export function enforceAccess(level: AccessLevel, principal: Principal): void {
  const rule: AccessRule = accessPolicy[level];
  if (rule.kinds === null) return;
  if (rule.sessionOnly === true) {
    if (principal.sessionId === undefined)
      throw new ApiError(403, 'SCOPE_DENIED', `An API key cannot do this; it needs ${rule.summary}`);
  } else if (!rule.kinds.includes(principal.kind)) {
    throw new ApiError(
      403,
      'SCOPE_DENIED',
      `A ${kindNames[principal.kind]} key cannot do this; it needs a ${rule.summary}`,
    );
  }
  if (rule.domainLimited === 'deny' && principal.domainId !== null) {
    throw new ApiError(403, 'DOMAIN_PINNED', 'This key is limited to one domain and this operation spans every domain');
  }
  if (rule.makerMustBeAdmin && !isTeamAdmin(principal.makerRole)) {
    throw new ApiError(
      403,
      'FORBIDDEN',
      principal.sessionId !== undefined
        ? 'You are signed in as a member who is not a team admin (owner or admin) of this team'
        : principal.memberId === null
          ? 'This key was made before the service recorded who made each key; ask a team admin for a new key'
          : 'This key was made by a member who is not a team admin',
    );
  }
}
