// GET /inbound/attachments/{token}: an attachment of a received message through its signed link
// (attachment-links.ts), outside the API prefix and without an API key. An edited, forged or
// unknown link answers 404 and an expired one 403, both with no bytes; an attachment removed with
// its original (retention) is 404. The bytes go out as a download (Content-Disposition: attachment,
// nosniff, a sandboxing CSP), so an html or svg attachment never runs on Herald's origin; <img>
// still shows inline images. Not API: hidden from OpenAPI.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { BlobStore } from '../adapters/blob-store/index.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ATTACHMENT_PATH, readAttachmentToken } from './attachment-links.ts';
import { readAttachment } from './message-bytes.ts';

interface AttachmentRoutesDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  blobs: BlobStore;
}

const refuse = (reply: FastifyReply, status: 403 | 404, message: string) =>
  reply
    .code(status)
    .headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    .type('text/plain; charset=utf-8')
    .send(message);

/** RFC 6266 filename: an ASCII fallback and the UTF-8 name. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function registerAttachmentRoutes(app: FastifyInstance, deps: AttachmentRoutesDeps): void {
  app.get<{ Params: { token: string } }>(
    `${ATTACHMENT_PATH}/:token`,
    { schema: { hide: true } },
    async (request, reply) => {
      const ref = readAttachmentToken(deps.secrets, request.params.token);
      if (ref === null) return refuse(reply, 404, 'This link is not valid.');
      if (ref.expiresAt.getTime() <= deps.clock.now().getTime())
        return refuse(reply, 403, 'This link has expired. Read the message again for a fresh link.');
      const attachment = await readAttachment(deps.db, deps.blobs, ref.teamId, ref.messageId, ref.position);
      if (attachment === undefined) return refuse(reply, 404, 'This attachment is no longer kept.');
      return reply
        .headers({
          'content-disposition': contentDisposition(attachment.filename),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'cache-control': 'private, max-age=3600',
          'referrer-policy': 'no-referrer',
        })
        .type(/^[\w.+-]+\/[\w.+-]+$/.test(attachment.contentType) ? attachment.contentType : 'application/octet-stream')
        .send(attachment.content);
    },
  );
}
