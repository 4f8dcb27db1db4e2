// Received mail's bytes on S3 (HERALD_BLOB_STORE=s3://…, a fake S3 on loopback): the batch's pack
// is an object under the prefix, nothing is written to the data dir's blobs, and /raw and the
// attachment link give back exactly what was sent, read by range from the object.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { SendingTeam } from '../emails/support.ts';
import { startFakeS3, fakeS3Env, type FakeS3 } from '../support/fake-s3.ts';
import { crlf, startInboxBedWithInbox, uniqueLocal, type InboxBed } from './support.ts';

let s3: FakeS3;
let bed: InboxBed;
let team: SendingTeam;
let inbox: { id: string; address: string };

beforeAll(async () => {
  s3 = await startFakeS3();
  const { blobStore } = loadConfig(fakeS3Env(s3, 'herald/prod'));
  ({ bed, team, inbox } = await startInboxBedWithInbox('s3', 'Support', { blobStore }));
}, 180_000);
afterAll(async () => {
  await bed?.close();
  await s3?.close();
});

const ATTACHMENT = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256));

const message = (to: string) =>
  crlf(`From: Alice <alice@sender.test>
To: ${to}
Subject: On S3
Message-ID: <${uniqueLocal('s3')}@sender.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="B"

--B
Content-Type: text/plain

Stored on S3.
--B
Content-Type: application/octet-stream
Content-Disposition: attachment; filename="bytes.bin"
Content-Transfer-Encoding: base64

${ATTACHMENT.toString('base64')}
--B--
`);

describe('received mail with HERALD_BLOB_STORE on S3', () => {
  it('keeps the pack as an object under the prefix and serves /raw and the attachment from it', async () => {
    const raw = message(inbox.address);
    await bed.deliver({ from: 'alice@sender.test', to: inbox.address }, raw);
    const received = (await bed.get(team.key, '/v1/inbound/messages?limit=1')).json().data[0];
    const packs = [...s3.objects.keys()].filter((key) => key.startsWith('herald/prod/inbound/'));
    expect(packs).toHaveLength(1);
    expect(packs[0]).toMatch(/^herald\/prod\/inbound\/\d{4}-\d\d-\d\d-\d\d\/pack_[0-9a-z]{26}\.pack$/);
    expect(s3.objects.get(packs[0]!)!.includes(raw)).toBe(true);
    expect(fs.existsSync(path.join(bed.w.h.t.deps.config.dataDir, 'blobs'))).toBe(false);

    const rawAnswer = await bed.get(team.key, `/v1/inbound/messages/${received.messageId}/raw`);
    expect(rawAnswer.statusCode).toBe(200);
    expect(rawAnswer.rawPayload.equals(raw)).toBe(true);
    const link = await bed.w.h.t.app.inject({
      method: 'GET',
      url: new URL(received.attachments[0].url).pathname,
    });
    expect(link.statusCode).toBe(200);
    expect(link.rawPayload.equals(ATTACHMENT)).toBe(true);
  });
});
