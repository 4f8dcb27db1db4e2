// The built-in spam checks' authentication results (src/inboxes/spam-local.ts) on mail received over
// SMTP, with the sender's DKIM key, SPF and DMARC records on the loopback DNS server: a valid
// signature passes, a signed header changed after signing fails DKIM, an unsigned message sent from
// an address its domain's SPF allows passes DMARC, and an unsigned message from a domain whose SPF
// refuses every address and whose DMARC policy is reject is spam.
import { generateKeyPairSync } from 'node:crypto';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasDkimSignature } from '../../src/inboxes/spam-local.ts';
import type { SendingTeam } from '../emails/support.ts';
import { plainMessage, startInboxBedWithInbox, uniqueLocal, type InboxBed } from './support.ts';

let bed: InboxBed;
let team: SendingTeam;
let inbox: { id: string; address: string };

beforeAll(async () => {
  ({ bed, team, inbox } = await startInboxBedWithInbox('auth'));
}, 60_000);
afterAll(async () => bed?.close());

/** A sender domain with a DKIM key (selector `s1`), SPF and DMARC records as given. */
function senderDomain(spf: string, dmarcPolicy: 'none' | 'reject') {
  const domain = `${uniqueLocal('sender')}.test`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = (publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64');
  bed.w.dns.setTxt(`s1._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${spki}`);
  bed.w.dns.setTxt(domain, spf);
  bed.w.dns.setTxt(`_dmarc.${domain}`, `v=DMARC1; p=${dmarcPolicy}`);
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  return {
    domain,
    async sign(raw: Buffer): Promise<Buffer> {
      const signature = { signingDomain: domain, selector: 's1', privateKey: privateKeyPem };
      const result = await dkimSign(raw, {
        ...signature,
        signatureData: [signature],
        algorithm: 'rsa-sha256',
        canonicalization: 'relaxed/relaxed',
      });
      return Buffer.concat([Buffer.from(result.signatures), raw]);
    },
  };
}

/** Delivers from `from@domain` and answers the stored verdict and its details. */
async function received(domain: string, raw: Buffer) {
  const subject = /^Subject: (.*)$/m.exec(raw.toString())![1]!;
  await bed.deliver({ from: `alice@${domain}`, to: inbox.address }, raw);
  return bed.w.h.t.deps.db
    .selectFrom('inbox_messages')
    .select(['spam_verdict', 'spam_details'])
    .where('team_id', '=', team.id)
    .where('subject', '=', subject)
    .executeTakeFirstOrThrow();
}

const message = (domain: string, text: string) =>
  plainMessage({ from: `Alice <alice@${domain}>`, to: inbox.address, subject: uniqueLocal('auth'), text });

it('a valid DKIM signature and an SPF pass for the client address: pass everywhere, clean', async () => {
  const sender = senderDomain('v=spf1 ip4:127.0.0.1 -all', 'reject');
  const row = await received(sender.domain, await sender.sign(message(sender.domain, 'Signed and sound.')));
  expect(row.spam_verdict).toBe('clean');
  expect(row.spam_details).toMatchObject({
    engine: 'herald',
    rules: [],
    auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
  });
});

it('a signed header changed after signing fails DKIM (DMARC still passes on the aligned SPF pass)', async () => {
  const sender = senderDomain('v=spf1 ip4:127.0.0.1 -all', 'reject');
  const signed = await sender.sign(message(sender.domain, 'The amount is 10 EUR.'));
  const tampered = Buffer.from(signed.toString().replace('From: Alice <', 'From: Alice from Billing <'));
  const row = await received(sender.domain, tampered);
  expect(row.spam_details).toMatchObject({ rules: ['DKIM_FAIL'], auth: { spf: 'pass', dkim: 'fail', dmarc: 'pass' } });
  expect(row.spam_verdict).toBe('clean');
});

it("a body changed after signing is mailauth's neutral (body hash did not verify), which scores nothing", async () => {
  const sender = senderDomain('v=spf1 ip4:127.0.0.1 -all', 'reject');
  const signed = await sender.sign(message(sender.domain, 'The amount is 10 EUR.'));
  const row = await received(sender.domain, Buffer.from(signed.toString().replace('10 EUR', '9000 EUR')));
  expect(row.spam_details).toMatchObject({ rules: [], auth: { spf: 'pass', dkim: 'neutral', dmarc: 'pass' } });
});

it('unsigned, refused by SPF, DMARC policy reject: spam', async () => {
  const sender = senderDomain('v=spf1 -all', 'reject');
  const row = await received(sender.domain, message(sender.domain, 'Trust me.'));
  expect(row.spam_details).toMatchObject({
    rules: ['DMARC_FAIL_ENFORCED', 'SPF_FAIL'],
    auth: { spf: 'fail', dkim: 'none', dmarc: 'fail', dmarcPolicy: 'reject' },
  });
  expect(row.spam_verdict).toBe('spam');
});

it('unsigned, SPF pass for the client address: DMARC passes on the aligned SPF domain, DKIM none', async () => {
  const sender = senderDomain('v=spf1 ip4:127.0.0.1 -all', 'reject');
  const row = await received(sender.domain, message(sender.domain, 'Not signed, but sent from the right place.'));
  expect(row.spam_verdict).toBe('clean');
  expect(row.spam_details).toMatchObject({ rules: [], auth: { spf: 'pass', dkim: 'none', dmarc: 'pass' } });
});

it('finds a DKIM-Signature in the header only', () => {
  expect(hasDkimSignature(Buffer.from('DKIM-Signature : v=1; d=b.test\r\nFrom: a@b.test\r\n\r\nbody\r\n'))).toBe(true);
  expect(hasDkimSignature(Buffer.from('From: a@b.test\ndkim-signature: v=1\n\nbody\n'))).toBe(true);
  expect(hasDkimSignature(Buffer.from('From: a@b.test\r\nSubject: x\r\n\r\nbody\r\n'))).toBe(false);
  // A DKIM-Signature line in the body is not a signature of the message.
  expect(hasDkimSignature(Buffer.from('From: a@b.test\r\n\r\nDKIM-Signature: v=1\r\n'))).toBe(false);
  expect(hasDkimSignature(Buffer.from('X-Not-DKIM-Signature: v=1\r\n\r\n'))).toBe(false);
});
