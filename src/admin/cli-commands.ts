// The table of `herald admin` commands: each maps its options to one admin API request, or, for a
// command that needs several (contacts import), to a job that sends them and returns the output.
import fs from 'node:fs';
import type { ParseArgsOptionsConfig } from 'node:util';
import { importContactsCsv, stderrProgress } from '../contacts/csv-import.ts';

export interface AdminRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

export interface AdminResponse {
  status: number;
  body: string;
}

/** A command made of several admin requests; returns what is printed as JSON on stdout. */
export type AdminJob = (send: (request: AdminRequest) => Promise<AdminResponse>) => Promise<unknown>;

type Values = Record<string, string | boolean | undefined>;

interface AdminCommand {
  resource: string;
  action: string;
  usage: string;
  options: ParseArgsOptionsConfig;
  toRequest(values: Values, positionals: string[]): AdminRequest | AdminJob;
}

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required`);
  return value;
}

function integer(value: string | boolean | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number`);
  return Number(value);
}

function signedInteger(value: string | boolean | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new Error(`--${name} must be a whole number`);
  return Number(value);
}

function boolean(value: string | boolean | undefined, name: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`--${name} must be true or false`);
}

function teamIdFrom(values: Values, positionals: string[]): number {
  const raw = positionals[0] ?? values.team;
  const id = integer(raw, 'team');
  if (id === undefined) throw new Error('a team id is required (--team ID or as the first argument)');
  return id;
}

/** Drops undefined entries so that PATCH bodies carry only what was given. */
function defined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

const str = { type: 'string' } as const;

export const adminCommands: AdminCommand[] = [
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
        plan: v.plan,
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
      'teams update TEAM_ID [--plan] [--currency] [--sms-enabled true|false] [--api-rate-limit N] [--stripe-customer-id ID]',
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
        plan: v.plan,
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
      return (send) => importContactsCsv({ teamId, bookId, file, send, progress: stderrProgress() });
    },
  },
  {
    resource: 'outbox',
    action: 'list',
    usage: 'outbox list [--team TEAM_ID] [--limit N]',
    options: { team: str, limit: str },
    toRequest: (v) => {
      const query = new URLSearchParams();
      const teamId = integer(v.team, 'team');
      const limit = integer(v.limit, 'limit');
      if (teamId !== undefined) query.set('teamId', String(teamId));
      if (limit !== undefined) query.set('limit', String(limit));
      const search = query.toString();
      return { method: 'GET', path: `/outbox${search === '' ? '' : `?${search}`}` };
    },
  },
  {
    resource: 'sms-outbox',
    action: 'list',
    usage: 'sms-outbox [--to +E164] [--limit N]',
    options: { to: str, limit: str },
    toRequest: (v) => {
      const query = new URLSearchParams();
      if (typeof v.to === 'string') query.set('to', v.to);
      const limit = integer(v.limit, 'limit');
      if (limit !== undefined) query.set('limit', String(limit));
      const search = query.toString();
      return { method: 'GET', path: `/sms/outbox${search === '' ? '' : `?${search}`}` };
    },
  },
  {
    resource: 'sms',
    action: 'callback-urls',
    usage: 'sms callback-urls',
    options: {},
    toRequest: () => ({ method: 'GET', path: '/sms/callback-urls' }),
  },
  {
    resource: 'suppressions',
    action: 'list',
    usage: 'suppressions list --team TEAM_ID [--email ADDRESS] [--limit N] [--cursor CURSOR]',
    options: { team: str, email: str, limit: str, cursor: str },
    toRequest: (v, p) => {
      const query = new URLSearchParams();
      if (typeof v.email === 'string') query.set('email', v.email);
      const limit = integer(v.limit, 'limit');
      if (limit !== undefined) query.set('limit', String(limit));
      if (typeof v.cursor === 'string') query.set('cursor', v.cursor);
      const search = query.toString();
      return { method: 'GET', path: `/teams/${teamIdFrom(v, p)}/suppressions${search === '' ? '' : `?${search}`}` };
    },
  },
  {
    resource: 'suppressions',
    action: 'get',
    usage: 'suppressions get --team TEAM_ID --email ADDRESS',
    options: { team: str, email: str },
    toRequest: (v, p) => ({
      method: 'GET',
      path: `/teams/${teamIdFrom(v, p)}/suppressions/${encodeURIComponent(required(v, 'email'))}`,
    }),
  },
  {
    resource: 'suppressions',
    action: 'delete',
    usage: 'suppressions delete --team TEAM_ID --email ADDRESS',
    options: { team: str, email: str },
    toRequest: (v, p) => ({
      method: 'DELETE',
      path: `/teams/${teamIdFrom(v, p)}/suppressions/${encodeURIComponent(required(v, 'email'))}`,
    }),
  },
  {
    resource: 'wallet',
    action: 'get',
    usage: 'wallet get --team TEAM_ID',
    options: { team: str },
    toRequest: (v, p) => ({ method: 'GET', path: `/teams/${teamIdFrom(v, p)}/wallet` }),
  },
  {
    resource: 'wallet',
    action: 'transactions',
    usage: 'wallet transactions --team TEAM_ID [--limit N]',
    options: { team: str, limit: str },
    toRequest: (v, p) => {
      const limit = integer(v.limit, 'limit');
      const search = limit === undefined ? '' : `?limit=${limit}`;
      return { method: 'GET', path: `/teams/${teamIdFrom(v, p)}/wallet/transactions${search}` };
    },
  },
  {
    resource: 'wallet',
    action: 'top-up',
    usage: 'wallet top-up --team TEAM_ID --amount-minor N [--reference REF] [--description TEXT]',
    options: { team: str, 'amount-minor': str, reference: str, description: str },
    toRequest: (v, p) => ({
      method: 'POST',
      path: `/teams/${teamIdFrom(v, p)}/wallet/top-ups`,
      body: defined({
        amountMinor: integer(required(v, 'amount-minor'), 'amount-minor'),
        reference: v.reference,
        description: v.description,
      }),
    }),
  },
  {
    resource: 'wallet',
    action: 'adjust',
    usage: 'wallet adjust --team TEAM_ID --amount-minor N|-N --description TEXT',
    options: { team: str, 'amount-minor': str, description: str },
    toRequest: (v, p) => ({
      method: 'POST',
      path: `/teams/${teamIdFrom(v, p)}/wallet/adjustments`,
      body: {
        amountMinor: signedInteger(required(v, 'amount-minor'), 'amount-minor'),
        description: required(v, 'description'),
      },
    }),
  },
  {
    resource: 'wallet',
    action: 'reverse',
    usage: 'wallet reverse --team TEAM_ID --transaction TRANSACTION_ID [--description TEXT]',
    options: { team: str, transaction: str, description: str },
    toRequest: (v, p) => ({
      method: 'POST',
      path: `/teams/${teamIdFrom(v, p)}/wallet/reversals`,
      body: defined({ transactionId: required(v, 'transaction'), description: v.description }),
    }),
  },
  {
    resource: 'sender-ids',
    action: 'list',
    usage: 'sender-ids list --team TEAM_ID',
    options: { team: str },
    toRequest: (v, p) => ({ method: 'GET', path: `/teams/${teamIdFrom(v, p)}/sender-ids` }),
  },
  {
    resource: 'sender-ids',
    action: 'create',
    usage: 'sender-ids create --team TEAM_ID --sender-id NAME --country CC [--fee-minor N]',
    options: { team: str, 'sender-id': str, country: str, 'fee-minor': str },
    toRequest: (v, p) => ({
      method: 'POST',
      path: `/teams/${teamIdFrom(v, p)}/sender-ids`,
      body: defined({
        senderId: required(v, 'sender-id'),
        country: required(v, 'country'),
        feeMinor: integer(v['fee-minor'], 'fee-minor'),
      }),
    }),
  },
  {
    resource: 'sender-ids',
    action: 'delete',
    usage: 'sender-ids delete --team TEAM_ID --id SENDER_ID_ID [--refund true|false]',
    options: { team: str, id: str, refund: str },
    toRequest: (v, p) => ({
      method: 'DELETE',
      path: `/teams/${teamIdFrom(v, p)}/sender-ids/${encodeURIComponent(required(v, 'id'))}`,
      body: { refund: boolean(v.refund, 'refund') ?? false },
    }),
  },
];
