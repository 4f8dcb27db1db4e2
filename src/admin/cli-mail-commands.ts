// `herald admin` commands for the mail outbox, the mail domain's DNS, suppressions and inboxes.
import { type AdminCommand, required, integer, teamIdFrom, str } from './cli-command-kit.ts';
import { printDestinations } from './destinations-print.ts';
import { printRetention } from './retention-print.ts';
import { outboxMessageEml, outboxMessageText, outboxSummary } from './outbox-print.ts';

export const mailCommands: AdminCommand[] = [
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
    print: (body, v) => outboxSummary(body, v.json === true || process.stdout.isTTY !== true),
  },
  {
    resource: 'outbox',
    action: 'show',
    usage: 'outbox show ID [--eml]',
    options: { eml: { type: 'boolean' } },
    toRequest: (_v, p) => {
      const [id, ...extra] = p;
      if (id === undefined || extra.length > 0 || !/^\d{1,18}$/.test(id)) throw new Error('give one outbox message id');
      return { method: 'GET', path: `/outbox/${id}` };
    },
    print: (body, v) => (v.eml === true ? outboxMessageEml(body) : outboxMessageText(body)),
  },
  {
    resource: 'destinations',
    action: 'list',
    usage: 'destinations [--json]   (direct-delivery destinations that are backed off, and why)',
    options: { json: { type: 'boolean' } },
    toRequest: () => ({ method: 'GET', path: '/destinations' }),
    print: (body, v) => printDestinations(body, v.json === true || !process.stdout.isTTY),
  },
  {
    resource: 'retention',
    action: 'list',
    usage: 'retention [--json]   (rows and bytes per table and month, and what the next run removes)',
    options: { json: { type: 'boolean' } },
    toRequest: () => ({ method: 'GET', path: '/retention' }),
    print: (body, v) => printRetention(body, v.json === true || !process.stdout.isTTY),
  },
  {
    resource: 'dns',
    action: 'records',
    usage: 'dns [records]   (the DNS records of HERALD_MAIL_DOMAIN)',
    options: {},
    toRequest: () => ({ method: 'GET', path: '/dns' }),
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
    resource: 'inboxes',
    action: 'list',
    usage: 'inboxes list --team TEAM_ID',
    options: { team: str },
    toRequest: (v, p) => ({ method: 'GET', path: `/teams/${teamIdFrom(v, p)}/inboxes` }),
  },
  {
    resource: 'inboxes',
    action: 'create',
    usage: 'inboxes create --team TEAM_ID --name NAME --address LOCAL@DOMAIN',
    options: { team: str, name: str, address: str },
    toRequest: (v, p) => ({
      method: 'POST',
      path: `/teams/${teamIdFrom(v, p)}/inboxes`,
      body: { name: required(v, 'name'), address: required(v, 'address') },
    }),
  },
  {
    resource: 'inboxes',
    action: 'delete',
    usage: 'inboxes delete --team TEAM_ID --id INBOX_ID',
    options: { team: str, id: str },
    toRequest: (v, p) => ({
      method: 'DELETE',
      path: `/teams/${teamIdFrom(v, p)}/inboxes/${encodeURIComponent(required(v, 'id'))}`,
    }),
  },
  {
    resource: 'inbound',
    action: 'failed',
    usage: 'inbound failed [--limit N] [--before ID]   (messages kept as unreadable or out of attempts)',
    options: { limit: str, before: str },
    toRequest: (v) => {
      const query = new URLSearchParams();
      const limit = integer(v.limit, 'limit');
      if (limit !== undefined) query.set('limit', String(limit));
      if (typeof v.before === 'string') query.set('before', v.before);
      const search = query.toString();
      return { method: 'GET', path: `/inbound/failed${search === '' ? '' : `?${search}`}` };
    },
  },
];
