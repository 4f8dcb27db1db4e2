// Herald's own SMTP listener for team inboxes (as `herald smtp` runs it), against the real database:
// recipients refused at RCPT (unknown, or an inbox just deleted), +tags and case, and SIZE.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../support/factory.ts';
import type { SendingTeam } from '../emails/support.ts';
import {
  createInbox,
  plainMessage,
  startInboxSuite,
  uniqueLocal,
  MAIL_DOMAIN,
  type InboxBed,
  type InboxSuite,
} from './support.ts';

let bed: InboxBed, team: SendingTeam, inbox: InboxSuite['inbox'], list: InboxSuite['list'];
beforeAll(async () => void ({ bed, team, inbox, list } = await startInboxSuite('support')), 180_000);
afterAll(async () => bed?.close());

/** A line-level SMTP exchange: each reply exactly as written. */
async function rawDialogue(port: number, lines: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = '';
  const replies: string[] = [];
  const nextReply = () =>
    new Promise<string>((resolve) => {
      const check = () => {
        // A complete reply ends with a line "NNN text" (no dash after the code).
        const match = /(^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(buffer);
        if (!match) return;
        const end = match.index + match[0].length;
        const reply = buffer.slice(0, end);
        buffer = buffer.slice(end);
        socket.off('data', onData);
        resolve(reply);
      };
      const onData = (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        check();
      };
      socket.on('data', onData);
      check();
    });
  replies.push(await nextReply());
  for (const line of lines) {
    socket.write(`${line}\r\n`);
    replies.push(await nextReply());
  }
  socket.end();
  return replies;
}

describe('the SMTP listener for inboxes', () => {
  it('refuses an unknown recipient with 550 5.1.1 at RCPT, before DATA; takes known ones in any case and with +tags', async () => {
    const replies = await rawDialogue(bed.listener.port, [
      'EHLO mx.sender.test',
      'MAIL FROM:<alice@sender.test>',
      `RCPT TO:<nobody-${uniqueLocal()}@${MAIL_DOMAIN}>`,
      `RCPT TO:<${inbox.address.toUpperCase()}>`,
      `RCPT TO:<${inbox.address.replace('@', '+billing.2026@')}>`,
      'QUIT',
    ]);
    expect(replies[0]).toMatch(/^220 /);
    expect(replies[1]).toMatch(/\r\n250[- ]SIZE 10485760\r\n/);
    expect(replies[3]).toMatch(/^550 5\.1\.1 /);
    expect(replies[4]).toMatch(/^250 /);
    expect(replies[5]).toMatch(/^250 /);
  });

  it('refuses a deleted inbox at RCPT at once, though the listener had just taken its mail', async () => {
    const gone = await createInbox(bed.w, team.id, `${uniqueLocal('gone')}@${MAIL_DOMAIN}`, 'Gone');
    const rcpt = async () =>
      (
        await rawDialogue(bed.listener.port, [
          'EHLO mx.sender.test',
          'MAIL FROM:<alice@sender.test>',
          `RCPT TO:<${gone.address}>`,
          'QUIT',
        ])
      )[3]!;
    expect(await rcpt()).toMatch(/^250 /); // now remembered as live
    const deleted = await adminRequest(bed.w.h.app, 'DELETE', `/teams/${team.id}/inboxes/${gone.id}`);
    expect(deleted).toMatchObject({ deleted: true });
    // The deletion's notification reaches the listener within milliseconds of the commit.
    await expect.poll(rcpt, { timeout: 5_000, interval: 20 }).toMatch(/^550 5\.1\.1 /);
  });

  it('delivers a +tagged, upper-cased recipient to the inbox once', async () => {
    const subject = `tagged ${uniqueLocal()}`;
    const tagged = inbox.address.replace('@', '+orders@');
    await bed.deliver(
      { from: 'alice@sender.test', to: [tagged, inbox.address.toUpperCase()] },
      plainMessage({ to: tagged, subject }),
    );
    const data = (await list(team.key, '?limit=5'))
      .json()
      .data.filter((m: { subject: string }) => m.subject === subject);
    expect(data).toHaveLength(1);
    expect(data[0].inbox).toEqual({ id: inbox.id, name: 'Support' });
  });

  it('enforces the SIZE it advertises: a declared or actual larger message is refused and nothing is stored', async () => {
    const replies = await rawDialogue(bed.listener.port, [
      'EHLO mx.sender.test',
      `MAIL FROM:<alice@sender.test> SIZE=${10 * 1024 * 1024 + 1}`,
      'QUIT',
    ]);
    expect(replies[2]).toMatch(/^552 /);
    const before = await bed.w.h.t.deps.db
      .selectFrom('inbox_messages')
      .select('id')
      .where('team_id', '=', team.id)
      .execute();
    const big = plainMessage({ to: inbox.address, text: 'x'.repeat(76) + ('\r\n' + 'y'.repeat(998)).repeat(10_600) });
    await expect(bed.deliver({ from: 'alice@sender.test', to: inbox.address }, big)).rejects.toThrow(/552/);
    const after = await bed.w.h.t.deps.db
      .selectFrom('inbox_messages')
      .select('id')
      .where('team_id', '=', team.id)
      .execute();
    expect(after).toHaveLength(before.length);
  });
});
