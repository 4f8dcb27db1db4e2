// The common start of the process tests that deliver mail: `herald start` with its mail going to a
// loopback SMTP sink and its DNS to a loopback DNS server, then (through the admin API, as a server
// deployment provisions: with DATABASE_URL there is no first-start banner) a pro team with a full
// access key, and a sending domain verified through the real route, its records published on that
// DNS server and checked by the worker's domain-check queue.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { TestDnsServer } from './dns-server.ts';
import { freshPostgresDatabase } from './fresh-database.ts';
import { SmtpSink, type SinkMessage } from './smtp-sink.ts';
import { databaseVariables, provisionTeam, startAdminHerald, type AdminHerald } from './admin-herald.ts';
import { http, until, type HeraldProcess } from './spawn.ts';

interface DnsRecord {
  type: string;
  name: string;
  value: string;
  priority: string | null;
}

export interface MailHerald extends AdminHerald {
  teamId: number | string;
  key: string;
  /** The verified sending domain. */
  domainName: string;
}

export async function startMailHerald(
  started: HeraldProcess[],
  o: {
    teamName: string;
    sink: SmtpSink;
    dns: TestDnsServer;
    mailDomain: string;
    databaseUrl: string | null;
    /** Deliver as the MTA (`direct`), the sink being the MX of example.test; default: the sink as relay. */
    direct?: boolean;
  },
): Promise<MailHerald> {
  if (o.direct) {
    o.dns.setMx('example.test', { exchange: 'mx.example.test', priority: 10 });
    o.dns.set('mx.example.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
  }
  const herald = await startAdminHerald(started, {
    ...(o.direct
      ? { HERALD_MAIL_TRANSPORT: 'direct', HERALD_MX_PORT: String(o.sink.port) }
      : { HERALD_MAIL_TRANSPORT: o.sink.url }),
    HERALD_MAIL_DOMAIN: o.mailDomain,
    HERALD_DNS_SERVERS: o.dns.address,
    ...databaseVariables(o.databaseUrl),
  });
  // Polling many emails one by one is more than the default 10 requests per second.
  const { teamId, key } = await provisionTeam(herald.admin, { name: o.teamName, plan: 'pro' }, 10_000);

  const { port } = herald;
  const domainName = `d${randomBytes(5).toString('hex')}.example.com`;
  const created = await http(port, 'POST', '/api/v1/domains', key, { name: domainName, region: 'us-east-1' });
  expect(created.status, created.text).toBe(200);
  const domain = created.body as { id: number; dnsRecords: DnsRecord[] };
  for (const record of domain.dnsRecords) {
    if (record.type === 'MX') o.dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
    else o.dns.setTxt(record.name, record.value);
  }
  await until('domain verified', 60_000, async () => {
    const current = await http(port, 'GET', `/api/v1/domains/${domain.id}`, key);
    const { status, isVerifying } = current.body as { status: string; isVerifying: boolean };
    if (status === 'SUCCESS') return true;
    // A DNS answer lost under load is a temporary failure, rechecked only minutes later: ask again.
    if (!isVerifying && status !== 'NOT_STARTED' && status !== 'PENDING')
      await http(port, 'PUT', `/api/v1/domains/${domain.id}/verify`, key);
    return undefined;
  });
  return { ...herald, teamId, key, domainName };
}

/**
 * What a mail process test runs beside Herald: the SMTP sink, the DNS server and, with DATABASE_URL,
 * a fresh database for this test only. close() (in afterEach) ends whatever was started.
 */
export class MailTestServices {
  #close: (() => Promise<void>)[] = [];

  async start(databaseLabel: string): Promise<{ sink: SmtpSink; dns: TestDnsServer; databaseUrl: string | null }> {
    const sink = await SmtpSink.start({ starttls: false });
    this.#close.push(() => sink.close());
    const dns = await TestDnsServer.start();
    this.#close.push(() => dns.close());
    const base = process.env.DATABASE_URL;
    if (base === undefined || base === '') return { sink, dns, databaseUrl: null };
    const fresh = await freshPostgresDatabase(base, databaseLabel);
    this.#close.push(fresh.drop);
    return { sink, dns, databaseUrl: fresh.url };
  }

  /** start(), then startMailHerald on what it started: how a mail process test begins. */
  async startHerald(
    started: HeraldProcess[],
    o: { databaseLabel: string; teamName: string; mailDomain: string },
  ): Promise<{ herald: MailHerald; sink: SmtpSink; dns: TestDnsServer; databaseUrl: string | null }> {
    const { sink, dns, databaseUrl } = await this.start(o.databaseLabel);
    const herald = await startMailHerald(started, {
      teamName: o.teamName,
      sink,
      dns,
      mailDomain: o.mailDomain,
      databaseUrl,
    });
    return { herald, sink, dns, databaseUrl };
  }

  async close(): Promise<void> {
    for (const close of this.#close.splice(0)) await close();
  }
}

/** A header of a message the sink received (folded lines unfolded). */
export function sinkHeader(message: SinkMessage, name: string): string {
  const head = message.raw
    .toString('utf8')
    .split('\r\n\r\n')[0]!
    .replace(/\r\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head);
  if (!match) throw new Error(`no ${name} header in a sink message`);
  return match[1]!.trim();
}
