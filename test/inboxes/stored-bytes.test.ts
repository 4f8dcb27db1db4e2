// Where received mail's bytes live: a batch's originals and attachments in one pack file of the blob
// store under the test app's own data dir (HERALD_DATA_DIR/blobs/inbound/<hour>/pack_….pack), each row
// naming its pack and offsets, written before the row commits and read back by range by /raw and the
// attachment links; rows stored before the blob store (bytes in their bytea columns) still served; a
// pack missing under a row that says kept is a 500 (not the 422 of retention); retention by moving
// the clock: /raw 422, links 404, then past hours of packs removed whole with the orphans in them.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundRetentionChore } from '../../src/worker.ts';
import type { SendingTeam } from '../emails/support.ts';
import { createInbox, crlf, startInboxBedWithInbox, uniqueLocal, MAIL_DOMAIN, type InboxBed } from './support.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let bed: InboxBed;
let team: SendingTeam;
let inbox: { id: string; address: string };

beforeAll(async () => {
  ({ bed, team, inbox } = await startInboxBedWithInbox('bytes'));
}, 180_000);
afterAll(async () => bed?.close());

/** Every byte value, so nothing is lost to a text conversion on the way. */
const BINARY = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

/** 8-bit text (not valid UTF-8) and a binary attachment. */
const messageTo = (to: string) =>
  Buffer.concat([
    crlf(`From: Alice <alice@sender.test>
To: ${to}
Subject: Bytes
Date: Wed, 25 Nov 2026 10:00:00 +0000
Message-ID: <${uniqueLocal('b')}@sender.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="B"

--B
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: 8bit

`),
    Buffer.from('Gr\xfc\xdfe aus K\xf6ln\r\n', 'latin1'),
    crlf(`--B
Content-Type: application/octet-stream
Content-Disposition: attachment; filename="all-bytes.bin"
Content-Transfer-Encoding: base64

${BINARY.toString('base64').replace(/.{76}/g, '$&\n')}
--B--
`),
  ]);

interface Received {
  messageId: string;
  receivedAt: string;
  attachments: { url: string }[];
}

async function receive(to = inbox.address, key = team.key): Promise<{ message: Received; raw: Buffer }> {
  const raw = messageTo(to);
  await bed.deliver({ from: 'alice@sender.test', to }, raw);
  const list = await bed.get(key, '/v1/inbound/messages?limit=1');
  return { message: list.json().data[0], raw };
}

/** Where the row says its bytes are: the pack's file under the test app's data dir, and the offsets. */
async function placeOf(messageId: string, teamId = team.id) {
  const { rows } = await sql<{ blob_key: string; raw_offset: number; raw_size: number; blob_offset: number }>`
    SELECT m.blob_key, m.raw_offset, m.raw_size, a.blob_offset FROM inbox_messages m
    JOIN inbox_attachments a ON a.message_id = m.id AND a.position = 0
    WHERE m.team_id = ${teamId}::int AND m.id = ${messageId}`.execute(bed.w.h.t.deps.db);
  const row = rows[0]!;
  return { ...row, file: path.join(bed.w.h.t.deps.config.dataDir, 'blobs', ...row.blob_key.split('/')) };
}

const attachmentLink = (message: Received) =>
  bed.w.h.t.app.inject({ method: 'GET', url: new URL(message.attachments[0]!.url).pathname });

async function bytesInRow(messageId: string) {
  const { rows } = await sql<{ raw: Buffer | null; content: Buffer | null }>`
    SELECT m.raw, a.content FROM inbox_messages m JOIN inbox_attachments a ON a.message_id = m.id
    WHERE m.team_id = ${team.id}::int AND m.id = ${messageId}`.execute(bed.w.h.t.deps.db);
  return rows[0]!;
}

describe('the bytes of a received message', () => {
  it('are in a pack file in the data dir, not in the row; /raw gives back exactly what was sent', async () => {
    const { message, raw } = await receive();
    const place = await placeOf(message.messageId);
    // inbound/<YYYY-MM-DD-HH of its arrival>/pack_….pack
    expect(place.blob_key).toMatch(
      new RegExp(`^inbound/${message.receivedAt.slice(0, 13).replace('T', '-')}/pack_[0-9a-z]{26}\\.pack$`),
    );
    const pack = fs.readFileSync(place.file);
    expect(pack.subarray(place.raw_offset, place.raw_offset + place.raw_size).equals(raw)).toBe(true);
    expect(pack.subarray(place.blob_offset, place.blob_offset + BINARY.length).equals(BINARY)).toBe(true);
    expect(fs.statSync(place.file).mode & 0o777).toBe(0o600);
    expect(await bytesInRow(message.messageId)).toEqual({ raw: null, content: null });
    const response = await bed.get(team.key, `/v1/inbound/messages/${message.messageId}/raw`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('message/rfc822');
    expect(response.rawPayload.equals(raw)).toBe(true);
  });

  it('are served to an attachment link from the blob store', async () => {
    const { message } = await receive();
    const link = await attachmentLink(message);
    expect(link.statusCode).toBe(200);
    expect(link.rawPayload.equals(BINARY)).toBe(true);
    // What the link serves is the pack: change its bytes and the link follows.
    const place = await placeOf(message.messageId);
    const pack = fs.readFileSync(place.file);
    pack.write('changed on disk', place.blob_offset, 'latin1');
    fs.writeFileSync(place.file, pack);
    expect((await attachmentLink(message)).rawPayload.subarray(0, 15).toString()).toBe('changed on disk');
  });

  it("are another team's 404, on /raw as on the message", async () => {
    const { message } = await receive();
    const other = await bed.w.h.team();
    expect((await bed.get(other.key, `/v1/inbound/messages/${message.messageId}/raw`)).statusCode).toBe(404);
    expect((await bed.get(other.key, `/v1/inbound/messages/inmsg_nothing/raw`)).statusCode).toBe(404);
  });

  it('missing from the blob store while the row says kept (a data dir not shared) answer 500, not 422', async () => {
    const { message } = await receive();
    fs.rmSync((await placeOf(message.messageId)).file);
    const response = await bed.get(team.key, `/v1/inbound/messages/${message.messageId}/raw`);
    expect(response.statusCode).toBe(500);
    expect((await attachmentLink(message)).statusCode).toBe(500);
  });

  it('of a message stored before the blob store (bytes in its row, no file) are still served', async () => {
    const { message, raw } = await receive();
    fs.rmSync((await placeOf(message.messageId)).file);
    const { db } = bed.w.h.t.deps;
    await sql`UPDATE inbox_messages SET raw = ${raw}, blob_key = NULL, raw_offset = NULL
      WHERE team_id = ${team.id}::int AND id = ${message.messageId}`.execute(db);
    await sql`UPDATE inbox_attachments SET content = ${BINARY}, blob_offset = NULL
      WHERE team_id = ${team.id}::int AND message_id = ${message.messageId}`.execute(db);
    const response = await bed.get(team.key, `/v1/inbound/messages/${message.messageId}/raw`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(raw)).toBe(true);
    expect((await attachmentLink(message)).rawPayload.equals(BINARY)).toBe(true);
  });
});

// Last: it moves the clock 30 days.
describe('retention', () => {
  it('marks originals after HERALD_INBOUND_RETENTION_DAYS (/raw 422, links 404), then removes past hours of packs whole', async () => {
    const t = await bed.w.h.team();
    const box = await createInbox(bed.w, t.id, `${uniqueLocal('r')}@${MAIL_DOMAIN}`);
    const { message } = await receive(box.address, t.key);
    const { message: legacy, raw: legacyRaw } = await receive(box.address, t.key);
    const { deps, clock } = bed.w.h.t;
    await sql`UPDATE inbox_messages SET raw = ${legacyRaw} WHERE team_id = ${t.id}::int AND id = ${legacy.messageId}`.execute(
      deps.db,
    );
    const pack = (await placeOf(message.messageId, t.id)).file;
    const chore = inboundRetentionChore(deps.config.inboundRetentionDays, deps.blobs);
    const run = () =>
      chore.run({
        name: chore.name,
        db: deps.db,
        clock,
        startedAt: clock.now(),
        signal: new AbortController().signal,
        logger: deps.logger,
      });
    const raw = (m: Received) => bed.get(t.key, `/v1/inbound/messages/${m.messageId}/raw`);
    clock.advance(30 * DAY - 60_000);
    await run();
    expect((await raw(message)).statusCode).toBe(200);
    expect(fs.existsSync(pack)).toBe(true);

    clock.advance(120_000);
    await run();
    for (const m of [message, legacy]) {
      const answer = await raw(m);
      expect(answer.statusCode).toBe(422);
      expect(answer.json().error.code).toBe('UNPROCESSABLE_ENTITY');
      const read = (await bed.get(t.key, `/v1/inbound/messages/${m.messageId}`)).json();
      expect(read.subject).toBe('Bytes');
      expect((await attachmentLink(read)).statusCode).toBe(404);
    }
    const { rows } = await sql<{ raw: Buffer | null }>`
      SELECT raw FROM inbox_messages WHERE team_id = ${t.id}::int AND id = ${legacy.messageId}`.execute(deps.db);
    expect(rows[0]!.raw).toBeNull();

    // An hour on, the packs' hour is past the cutoff's: removed whole, with an orphan (a batch that
    // rolled back) in it; an orphan of the cutoff's own hour stays until its hour is past too.
    clock.advance(HOUR);
    const hourOf = (at: number) => new Date(at).toISOString().slice(0, 13).replace('T', '-');
    const cutoffHour = hourOf(clock.now().getTime() - 30 * DAY);
    const hourBefore = hourOf(clock.now().getTime() - 30 * DAY - HOUR);
    await deps.blobs.put(`inbound/${hourBefore}/pack_orphan.pack`, Buffer.from('orphan'));
    await deps.blobs.put(`inbound/${cutoffHour}/pack_orphan_kept.pack`, Buffer.from('orphan'));
    await run();
    expect(fs.existsSync(pack)).toBe(false);
    expect(await deps.blobs.list('inbound/')).not.toContain(hourBefore);
    expect(await deps.blobs.list(`inbound/${cutoffHour}/`)).toContain('pack_orphan_kept.pack');
  });
});
