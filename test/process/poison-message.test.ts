// Issue 41, "one inbound message stops all inbound mail": against a real `herald start`, a message of
// 1,000 MIME parts (999 small attachments, the 131 KB message) and then a normal one, both to
// a team inbox. The first is refused in the session with words (554 5.6.0), the second is delivered
// and readable within seconds; `herald admin inbound failed` answers; SIGTERM then ends the process.
// Before, the first got 250, its parse never settled, the second waited behind it for good, and
// SIGTERM hung.
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { afterEach, describe, expect, it } from 'vitest';
import { dropTestDatabases, testDatabaseUrl } from '../support/fresh-database.ts';
import { startInboundHerald } from '../support/inbound-herald.ts';
import { cleanUpHeralds, http, runHerald, until, waitForExit, withHeraldLogs } from '../support/spawn.ts';

afterEach(async () => {
  await cleanUpHeralds();
  await dropTestDatabases();
});

function manyParts(to: string, parts: number): Buffer {
  const lines = ['From: Alice <alice@sender.test>', `To: ${to}`, 'Subject: 1000 parts', 'MIME-Version: 1.0'];
  lines.push('Content-Type: multipart/mixed; boundary="B41"', '', '--B41', 'Content-Type: text/plain', '', 'hi');
  for (let i = 1; i < parts; i++)
    lines.push(
      '--B41',
      'Content-Type: text/plain',
      `Content-Disposition: attachment; filename="a${i}.txt"`,
      '',
      `a ${i}`,
    );
  lines.push('--B41--', '');
  return Buffer.from(lines.join('\r\n'));
}

/** One message over SMTP; the server's final reply, accepted or not. */
async function send(port: number, to: string, raw: Buffer): Promise<string> {
  const connection = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true, socketTimeout: 60_000 });
  await new Promise<void>((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => resolve());
  });
  try {
    return await new Promise<string>((resolve) =>
      connection.send({ from: 'alice@sender.test', to }, raw, (error, info) =>
        resolve(error ? String((error as Error & { response?: string }).response ?? error.message) : info.response),
      ),
    );
  } finally {
    connection.quit();
  }
}

describe('a message the parser cannot take, in a running herald', { timeout: 300_000 }, () => {
  it('is refused in the session, the next message is delivered within seconds, and SIGTERM exits', async () => {
    await withHeraldLogs(async (started) => {
      const databaseUrl = await testDatabaseUrl('poison_message');
      const {
        process: herald,
        env,
        port,
        smtpPort,
        teamId,
        key,
        admin,
      } = await startInboundHerald(started, {
        teamName: 'poison',
        databaseUrl,
      });
      const address = (
        await admin('POST', `/teams/${teamId}/inboxes`, {
          name: 'Support',
          address: 'support@herald.localhost',
        })
      ).address as string;

      expect(await send(smtpPort, address, manyParts(address, 1000))).toMatch(
        /^554 5\.6\.0 Message has too many MIME parts/,
      );
      const normal = Buffer.from(
        `From: Bob <bob@sender.test>\r\nTo: ${address}\r\nSubject: after the poison\r\n\r\nhello\r\n`,
      );
      expect(await send(smtpPort, address, normal)).toMatch(/^250/);
      const delivered = await until('the normal message in the inbox', 20_000, async () => {
        const listed = await http(port, 'GET', '/api/v1/inbound/messages', key);
        const data = (listed.body as { data?: { subject: string }[] }).data ?? [];
        return data.find((m) => m.subject === 'after the poison');
      });
      expect(delivered.subject).toBe('after the poison');

      const failed = await runHerald(['admin', 'inbound', 'failed'], env);
      expect(failed.code, failed.stderr).toBe(0);
      expect(JSON.parse(failed.stdout)).toEqual([]);

      herald.kill('SIGTERM');
      expect(await waitForExit(herald, 90_000)).toEqual({ code: 0, signal: null });
    });
  });
});
