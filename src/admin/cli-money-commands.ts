// `herald admin` commands for the SMS outbox and switch, wallets and sender IDs.
import {
  type AdminCommand,
  required,
  integer,
  signedInteger,
  boolean,
  teamIdFrom,
  defined,
  str,
} from './cli-command-kit.ts';

export const moneyCommands: AdminCommand[] = [
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
