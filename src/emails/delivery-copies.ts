// The copies of one email that go out in an attempt, each built and DKIM-signed (delivery-message.ts).
import type { SendingDomain } from '../domains/index.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { BatchData } from './delivery-batch.ts';
import { buildSignedMessage } from './delivery-message.ts';
import type { EmailRow } from './queries.ts';
import { fillUnsubscribeLink, unsubscribeUrlFor } from './unsubscribe-link.ts';

/** The message as each copy goes out. MARKETING mail: a copy per recipient, with their own unsubscribe link. */
export async function signedCopies(
  deps: { secrets: Secrets; publicUrl: string },
  email: EmailRow,
  domain: SendingDomain,
  messageId: string,
  now: Date,
  data: BatchData,
  pending: string[],
): Promise<{ to: string[]; raw: Buffer }[]> {
  const copies = email.type === 'MARKETING' ? pending.map((r) => [r]) : [pending];
  const built: { to: string[]; raw: Buffer }[] = [];
  for (const to of copies) {
    const unsubscribeUrl = email.type === 'MARKETING' ? unsubscribeUrlFor(deps, email, to[0]!) : null;
    const raw = await buildSignedMessage(
      unsubscribeUrl === null ? email : fillUnsubscribeLink(email, unsubscribeUrl),
      domain,
      messageId,
      now,
      {
        attachments: data.attachments.get(email.id) ?? [],
        inReplyTo: data.inReplyTo.get(email.id) ?? null,
        listUnsubscribe: unsubscribeUrl,
        tracking: {
          secrets: deps.secrets,
          publicUrl: deps.publicUrl,
          recipient: email.type === 'MARKETING' ? to[0]! : null,
        },
      },
    );
    built.push({ to, raw });
  }
  return built;
}
