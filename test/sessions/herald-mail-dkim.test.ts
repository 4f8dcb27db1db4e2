// Herald's own mail, which goes straight to the transport rather than through email delivery: the
// sign-in mail and a team notice are DKIM-signed with the built-in domain's key, and a receiver that
// looks up the record Herald publishes for HERALD_MAIL_DOMAIN finds them passing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinDnsRecords } from '../../src/domains/index.ts';
import { queueTeamNotice, teamNoticesQueue } from '../../src/notices/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { heraldMailSigner } from '../../src/worker.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { requestSignIn, sendSignInMail } from './support.ts';

let t: TestApp;
let team: TestTeam;
let dns: TestDnsServer;

beforeAll(async () => {
  [t, dns] = await Promise.all([createTestApp(), TestDnsServer.start()]);
  team = await createTeam(t.app);
  for (const record of builtinDnsRecords(t.deps.secrets, t.deps.config.mailDomain))
    if (record.type === 'TXT') dns.setTxt(record.name, record.value);
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

const outboxFrom = async (from: string) =>
  (
    await t.deps.db.selectFrom('outbox').select('raw').where('envelope_from', '=', from).orderBy('id', 'desc').execute()
  ).map((row) => Buffer.from(row.raw));

describe("Herald's own mail", () => {
  it('signs the sign-in mail with the built-in domain key: DKIM passes, d= the mail domain', async () => {
    const id = await team.addMember('MEMBER');
    const { email } = await t.deps.db
      .selectFrom('members')
      .select('email')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect((await requestSignIn(t, email)).statusCode).toBe(202);
    await sendSignInMail(t);
    const [raw] = await outboxFrom(`sign-in@${t.deps.config.mailDomain}`);
    expect(raw!.toString()).toMatch(
      new RegExp(`^DKIM-Signature: .*d=${t.deps.config.mailDomain.replaceAll('.', '\\.')};`, 's'),
    );
    expect((await verifyDkimWithDns(raw!, dns.address)).statuses).toEqual(['pass']);
  });

  it('signs a team notice the same way', async () => {
    await t.deps.db
      .transaction()
      .execute((tx) =>
        queueTeamNotice(
          tx,
          team.id,
          { kind: 'test.notice', subject: 'A notice', text: 'Something happened.' },
          t.clock.now(),
        ),
      );
    const runner = new QueueRunner({
      database: t.deps.database,
      queues: [
        teamNoticesQueue({
          transport: t.deps.mailTransport,
          mailDomain: t.deps.config.mailDomain,
          sign: heraldMailSigner(t.deps),
        }),
      ],
      clock: t.clock,
      pollMs: 50,
    });
    await runner.start();
    try {
      await runner.idle();
    } finally {
      await runner.stop();
    }
    const [raw] = await outboxFrom(`notices@${t.deps.config.mailDomain}`);
    expect((await verifyDkimWithDns(raw!, dns.address)).statuses).toEqual(['pass']);
  });
});
