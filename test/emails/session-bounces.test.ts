// A refusal answered during the delivery worker's own SMTP session goes through the rules of bounce
// reports (src/feedback/bounce-rules.ts, handed in as sessionBounces): a hard bounce (550 5.1.1 at
// RCPT) is BOUNCED with bounceType hard and suppresses the address, so the next send to it is
// SUPPRESSED and never reaches the receiver; a soft one (a full mailbox, a spam verdict after DATA)
// is BOUNCED with bounceType soft and suppresses nothing.
import { describe, expect, it } from 'vitest';
import { emailJson, latestStatus, waitForStatus } from './delivery-support.ts';
import { useDirectBed } from './direct-bed.ts';
import { emails } from './support.ts';

const bed = useDirectBed('session-bounces');

const suppressionOf = (teamId: number, address: string) =>
  bed.h.t.deps.db
    .selectFrom('suppressions')
    .select(['reason', 'email_id'])
    .where('team_id', '=', teamId)
    .where('email', '=', address)
    .executeTakeFirst();

/** Sends one email to `to` and waits until the worker has bounced it; its BOUNCED event's data. */
async function bounced(to: string) {
  const { h, team } = bed;
  const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Hi', text: 'hi' });
  await waitForStatus(h, id, 'BOUNCED');
  const email = await emailJson(h, team.key, id);
  return { id, data: email.emailEvents.find((e) => e.status === 'BOUNCED')!.data as Record<string, unknown> };
}

describe('refusals during the SMTP session', () => {
  it('550 5.1.1 at RCPT: BOUNCED as hard, the address suppressed, the next send to it SUPPRESSED', async () => {
    const gone = bed.recipient('gone');
    bed.sink.respond(gone, {
      stage: 'rcpt',
      code: 550,
      message: '5.1.1 <gone>: Recipient address rejected: User unknown',
    });
    const { id, data } = await bounced(gone);
    expect(data).toMatchObject({
      recipient: gone,
      responseCode: 550,
      bounceType: 'hard',
      category: 'unknown-user',
      status: '5.1.1',
      remoteMta: `mx.${bed.rcptDomain}`,
    });
    expect(await suppressionOf(bed.team.id, gone)).toEqual({ reason: 'HARD_BOUNCE', email_id: id });

    const again = await emails(bed.h.app, bed.team.key).sent({
      from: bed.team.from(),
      to: gone,
      subject: 'Again',
      text: 'hi',
    });
    expect(await latestStatus(bed.h, again)).toBe('SUPPRESSED');
    expect(bed.messagesOf(again)).toHaveLength(0);
  });

  it('552 5.2.2 mailbox full at RCPT: BOUNCED as soft, nothing suppressed', async () => {
    const full = bed.recipient('full');
    bed.sink.respond(full, { stage: 'rcpt', code: 552, message: '5.2.2 mailbox full' });
    const { data } = await bounced(full);
    expect(data).toMatchObject({ bounceType: 'soft', category: 'mailbox-full', status: '5.2.2' });
    expect(await suppressionOf(bed.team.id, full)).toBeUndefined();
  });

  it('554 5.7.1 after DATA (a spam verdict): BOUNCED as soft, nothing suppressed', async () => {
    const picky = bed.recipient('picky');
    bed.sink.respond(picky, { stage: 'data', code: 554, message: '5.7.1 message rejected as spam' });
    const { data } = await bounced(picky);
    expect(data).toMatchObject({ bounceType: 'soft', category: 'spam-rejected', responseCode: 554 });
    expect(await suppressionOf(bed.team.id, picky)).toBeUndefined();
  });
});
