// `herald admin` commands for teams, members, API keys and contact imports.
import fs from 'node:fs';
import { TEAM_PLANS } from '../platform/team-plans.ts';
import { type AdminCommand, required, integer, boolean, teamIdFrom, defined, str } from './cli-command-kit.ts';

/** --plan: one of the two plans (their limits come from HERALD_PLANS_FILE), refused before any request. */
function plan(value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(TEAM_PLANS as readonly string[]).includes(value))
    throw new Error(`--plan must be ${TEAM_PLANS.join(' or ')}`);
  return value;
}

export const accountCommands: AdminCommand[] = [
  {
    resource: 'teams',
    action: 'create',
    usage: 'teams create --name NAME [--plan free|pro] [--currency USD|NGN|KES] [--sms-enabled true|false]',
    options: { name: str, plan: str, currency: str, 'sms-enabled': str },
    toRequest: (v) => ({
      method: 'POST',
      path: '/teams',
      body: defined({
        name: required(v, 'name'),
        plan: plan(v.plan),
        currency: v.currency,
        smsEnabled: boolean(v['sms-enabled'], 'sms-enabled'),
      }),
    }),
  },
  {
    resource: 'teams',
    action: 'get',
    usage: 'teams get TEAM_ID',
    options: { team: str },
    toRequest: (v, p) => ({ method: 'GET', path: `/teams/${teamIdFrom(v, p)}` }),
  },
  {
    resource: 'teams',
    action: 'update',
    usage:
      'teams update TEAM_ID [--plan free|pro] [--currency USD|NGN|KES] [--sms-enabled true|false] [--api-rate-limit N] [--stripe-customer-id ID]',
    options: {
      team: str,
      plan: str,
      currency: str,
      'sms-enabled': str,
      'api-rate-limit': str,
      'stripe-customer-id': str,
    },
    toRequest: (v, p) => ({
      method: 'PATCH',
      path: `/teams/${teamIdFrom(v, p)}`,
      body: defined({
        plan: plan(v.plan),
        currency: v.currency,
        smsEnabled: boolean(v['sms-enabled'], 'sms-enabled'),
        apiRateLimit: integer(v['api-rate-limit'], 'api-rate-limit'),
        stripeCustomerId: v['stripe-customer-id'],
      }),
    }),
  },
  {
    resource: 'members',
    action: 'list',
    usage: 'members list --team TEAM_ID',
    options: { team: str },
    toRequest: (v, p) => ({ method: 'GET', path: `/teams/${teamIdFrom(v, p)}/members` }),
  },
  {
    resource: 'members',
    action: 'add',
    usage: 'members add --team TEAM_ID --email EMAIL --role OWNER|ADMIN|MEMBER [--name NAME]',
    options: { team: str, email: str, role: str, name: str },
    toRequest: (v, p) => ({
      method: 'POST',
      path: `/teams/${teamIdFrom(v, p)}/members`,
      body: defined({ email: required(v, 'email'), role: required(v, 'role'), name: v.name }),
    }),
  },
  {
    resource: 'members',
    action: 'update',
    usage: 'members update --team TEAM_ID --member MEMBER_ID --role OWNER|ADMIN|MEMBER',
    options: { team: str, member: str, role: str },
    toRequest: (v, p) => ({
      method: 'PATCH',
      path: `/teams/${teamIdFrom(v, p)}/members/${integer(required(v, 'member'), 'member')}`,
      body: { role: required(v, 'role') },
    }),
  },
  {
    resource: 'keys',
    action: 'list',
    usage: 'keys list --team TEAM_ID',
    options: { team: str },
    toRequest: (v, p) => ({ method: 'GET', path: `/teams/${teamIdFrom(v, p)}/api-keys` }),
  },
  {
    resource: 'keys',
    action: 'create',
    usage:
      'keys create --team TEAM_ID --kind full|readonly|sending|sandbox|live_ai [--name NAME] [--member MEMBER_ID] [--domain DOMAIN_ID]',
    options: { team: str, kind: str, name: str, member: str, domain: str },
    toRequest: (v, p) => ({
      method: 'POST',
      path: `/teams/${teamIdFrom(v, p)}/api-keys`,
      body: defined({
        kind: required(v, 'kind'),
        name: v.name,
        memberId: integer(v.member, 'member'),
        domainId: integer(v.domain, 'domain'),
      }),
    }),
  },
  {
    resource: 'keys',
    action: 'delete',
    usage: 'keys delete --team TEAM_ID --key KEY_ID',
    options: { team: str, key: str },
    toRequest: (v, p) => ({
      method: 'DELETE',
      path: `/teams/${teamIdFrom(v, p)}/api-keys/${encodeURIComponent(required(v, 'key'))}`,
    }),
  },
  {
    // `herald admin sign-in-link EMAIL` (the action may be left out: src/admin-cli.ts).
    resource: 'sign-in-link',
    action: 'create',
    usage: 'sign-in-link EMAIL',
    options: {},
    toRequest: (_v, p) => {
      const [email, ...extra] = p;
      if (email === undefined || extra.length > 0) throw new Error("give exactly one member's email address");
      return { method: 'POST', path: '/sign-in-links', body: { email } };
    },
  },
  {
    resource: 'contacts',
    action: 'import',
    usage: 'contacts import --team TEAM_ID --book CONTACT_BOOK_ID FILE.csv',
    options: { team: str, book: str },
    toRequest: (v, p) => {
      const teamId = integer(required(v, 'team'), 'team')!;
      const bookId = required(v, 'book');
      const [file, ...extra] = p;
      if (file === undefined || extra.length > 0) throw new Error('give exactly one CSV file');
      if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Error(`cannot read ${file}`);
      return async (send) => {
        // Loaded here: its schemas are the only ones the command line needs.
        const { importContactsCsv, stderrProgress } = await import('../contacts/csv-import.ts');
        return importContactsCsv({ teamId, bookId, file, send, progress: stderrProgress() });
      };
    },
  },
];
