// Issue 23, "an SMTP listener nobody can lock out": the hostile pattern (more idle connections than
// the listener's limit, each address at its own per-address limit, every address in its own network)
// against a real `herald start`, scaled down through HERALD_SMTP_* (102 connections from 51 networks
// into 100 clients, as 1,020 from 51 did into 1,000), plus one /24 rotating its addresses as a /64
// would. Issue 41: half the flood holds mail transactions open (MAIL FROM then silence, or DATA
// dribbled a byte a second) under a transaction budget longer than the test, so that room is made
// by closing the idlest whatever its state (test/mx/smtp-open-transactions.test.ts has the budget
// itself). While they all hold their sockets, a real DSN for an email Herald sent gets its 250, and
// the email is then BOUNCED.
import { afterEach, describe, expect, it } from 'vitest';
import { dropTestDatabases, testDatabaseUrl } from '../support/fresh-database.ts';
import { startInboundHerald } from '../support/inbound-herald.ts';
import { cleanUpHeralds, http, until, withHeraldLogs } from '../support/spawn.ts';
import { RawClient } from '../mx/raw-smtp-client.ts';

const MAX_CLIENTS = 100;
const PER_ADDRESS = 2;
const PER_NETWORK = 5;
/** 51 networks (127.101.0.0/24 …), one address each, each at its per-address limit: 102 connections. */
const FLOOD_NETWORKS = 51;
/** One /24 with this many addresses, one connection each: only PER_NETWORK of them get in. */
const ROTATING_ADDRESSES = 20;

let flood: RawClient[] = [];
const dribbles: NodeJS.Timeout[] = [];

afterEach(async () => {
  for (const timer of dribbles.splice(0)) clearInterval(timer);
  for (const client of flood) client.close();
  flood = [];
  await cleanUpHeralds();
  await dropTestDatabases();
});

function dsn(recipient: string, emailId: string): string {
  return `From: MAILER-DAEMON@mx.example.org
To: <postmaster@herald.localhost>
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Your message ${emailId} could not be delivered.

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; ${recipient}
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 <${recipient}>: Recipient address rejected: User unknown

--B--
`.replace(/\r?\n/g, '\r\n');
}

type Hold = 'silent' | 'ehlo' | 'mail' | 'dribble';

/**
 * A hostile client: connects from `from`, takes its first reply, then says nothing, or only EHLO, or
 * opens a mail transaction and stalls in it, or dribbles its DATA to `recipient` a byte a second.
 */
async function idleClient(port: number, from: string, hold: Hold, recipient = ''): Promise<number> {
  const client = await RawClient.connect(port, from);
  flood.push(client);
  const greeting = await client.read();
  if (greeting.code !== 220 || hold === 'silent') return greeting.code;
  await client.command('EHLO idle.example.test');
  if (hold === 'ehlo') return greeting.code;
  await client.command('MAIL FROM:<>');
  if (hold === 'mail') return greeting.code;
  await client.command(`RCPT TO:<${recipient}>`);
  await client.command('DATA');
  client.socket.write('Subject: slow\r\n\r\n');
  dribbles.push(setInterval(() => client.socket.write('x'), 1_000));
  return greeting.code;
}

async function metrics(port: number): Promise<Map<string, number>> {
  const { text } = await http(port, 'GET', '/metrics');
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(herald_smtp_\w+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) values.set(match[1]!, Number(match[2]));
  }
  return values;
}

describe('an SMTP listener nobody can lock out', { timeout: 300_000 }, () => {
  it('answers a real DSN 250 while idle connections from 52 networks hold every place', async () => {
    await withHeraldLogs(async (started) => {
      const databaseUrl = await testDatabaseUrl('smtp_flood');
      // An email Herald sent (from its own domain to the team's owner), and the return path it went out with.
      const { port, smtpPort, adminToken, teamId, key } = await startInboundHerald(started, {
        teamName: 'flood',
        databaseUrl,
        variables: {
          HERALD_SMTP_MAX_CLIENTS: String(MAX_CLIENTS),
          HERALD_SMTP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
          HERALD_SMTP_MAX_CONNECTIONS_PER_NETWORK: String(PER_NETWORK),
          // Long enough that the flood is still there when the DSN comes: room is made by closing the idlest.
          HERALD_SMTP_GREETING_TIMEOUT_SECONDS: '120',
          HERALD_SMTP_TRANSACTION_IDLE_SECONDS: '120',
        },
      });
      const sent = await http(port, 'POST', '/api/v1/emails', key, {
        from: 'Herald <hello@herald.localhost>',
        to: 'owner@example.test',
        subject: 'Before the flood',
        text: 'x',
      });
      expect(sent.status, sent.text).toBe(200);
      const { emailId } = sent.body as { emailId: string };
      const returnPath = await until('the email in the outbox', 60_000, async () => {
        const listed = await http(port, 'GET', `/admin/v1/outbox?teamId=${teamId}`, adminToken);
        const rows = listed.body as { emailId: string; envelope: { from: string } }[];
        return rows.find((row) => row.emailId === emailId)?.envelope.from;
      });
      expect(returnPath).toMatch(/^bounce\+/);

      // The flood: every address at its limit, every address its own network; a quarter of them say
      // nothing, a quarter only EHLO, a quarter stall after MAIL FROM, a quarter dribble DATA.
      const holds: Hold[] = ['silent', 'ehlo', 'mail', 'dribble'];
      const greetings = await Promise.all(
        Array.from({ length: FLOOD_NETWORKS * PER_ADDRESS }, (_, i) =>
          idleClient(smtpPort, `127.${101 + (i % FLOOD_NETWORKS)}.0.1`, holds[i % 4]!, returnPath),
        ),
      );
      expect(greetings.filter((code) => code === 220)).toHaveLength(FLOOD_NETWORKS * PER_ADDRESS);
      // One network with many addresses (as an IPv6 /64 has): only its limit gets in.
      const rotating = await Promise.all(
        Array.from({ length: ROTATING_ADDRESSES }, (_, i) => idleClient(smtpPort, `127.200.0.${1 + i}`, 'silent')),
      );
      expect(rotating.filter((code) => code === 220)).toHaveLength(PER_NETWORK);
      expect(rotating.filter((code) => code === 421)).toHaveLength(ROTATING_ADDRESSES - PER_NETWORK);
      const full = await metrics(port);
      expect(full.get('herald_smtp_connections_open')).toBe(MAX_CLIENTS);

      // A sender's MTA returns the bounce while every place is held.
      const mta = await RawClient.connect(smtpPort, '127.0.0.1');
      flood.push(mta);
      expect((await mta.read()).code).toBe(220);
      expect((await mta.command('EHLO mx.example.org')).code).toBe(250);
      expect((await mta.command('MAIL FROM:<>')).code).toBe(250);
      expect((await mta.command(`RCPT TO:<${returnPath}>`)).code).toBe(250);
      expect((await mta.command('DATA')).code).toBe(354);
      const accepted = await mta.command(`${dsn('owner@example.test', emailId)}.`);
      expect(accepted.text).toMatch(/^250 /);

      // The flood was on throughout: the listener is still full, and only the idlest (never a sender) made room.
      const after = await metrics(port);
      const admitted = FLOOD_NETWORKS * PER_ADDRESS + PER_NETWORK + 1;
      expect(after.get('herald_smtp_connections_open')).toBe(MAX_CLIENTS);
      expect(after.get('herald_smtp_connections_total{result="accepted"}')).toBe(admitted);
      const evicted = ['silent', 'idle', 'transaction'].map(
        (kind) => after.get(`herald_smtp_connections_closed_total{reason="evicted_${kind}"}`) ?? 0,
      );
      expect(evicted.reduce((sum, count) => sum + count, 0)).toBe(admitted - MAX_CLIENTS);
      expect(after.get('herald_smtp_connections_total{result="refused_network_concurrency"}')).toBe(
        ROTATING_ADDRESSES - PER_NETWORK,
      );
      expect(after.get('herald_smtp_connections_total{result="refused_full"}') ?? 0).toBe(0);
      expect(after.get('herald_smtp_messages_accepted_total')).toBe(1);

      // And it was a real report: the email is BOUNCED.
      const events = await until('the email BOUNCED', 30_000, async () => {
        const email = await http(port, 'GET', `/api/v1/emails/${emailId}`, key);
        const list = (email.body as { emailEvents: { status: string }[] }).emailEvents.map((e) => e.status);
        return list.includes('BOUNCED') ? list : undefined;
      });
      expect(events).toContain('BOUNCED');
    });
  });
});
