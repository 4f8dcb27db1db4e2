// A conversation: its messages oldest first, one open at a time (?message=, else the newest). The
// open one shows its spam verdict, the sanitised HTML sandboxed, the text (new part or full, ?text=),
// attachments through their signed links, a Raw (.eml) download, and the Herald email it answers.
import { useMutation } from '@tanstack/react-query';
import { Download, Paperclip } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { api, toFailure } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { CopyableId } from '../ui/copy-button.tsx';
import { MessagingBadge } from '../ui/messaging-badges.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { UrlTabs } from '../ui/tabs.tsx';
import { Time } from '../ui/time.tsx';
import { displayName, formatBytes, type Conversation, type InboundMessage } from './inbox-messages.ts';
import { InboxPreview } from './inbox-preview.tsx';

/** The original through the API (the session's team header rides along), saved as a file. */
async function downloadRaw(id: string): Promise<void> {
  const { data, error, response } = await api.GET('/api/v1/inbound/messages/{id}/raw', {
    params: { path: { id } },
    parseAs: 'blob',
  });
  if (!response.ok || !data) throw toFailure(response.status, error);
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${id}.eml`;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers cancel a download whose URL goes in the same turn.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

function TextPart({ m }: { m: InboundMessage }) {
  const [params, setParams] = useSearchParams();
  const full = params.get('text') === 'full' || m.strippedText === null;
  const setFull = (next: boolean) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next) copy.set('text', 'full');
        else copy.delete('text');
        return copy;
      },
      { replace: true },
    );
  const text = (full ? m.text : m.strippedText) ?? '';
  return (
    <div>
      {m.strippedText !== null ? (
        <div role="group" aria-label="Text shown" className="mb-3 inline-flex rounded-md border border-control">
          {[false, true].map((value) => (
            <button
              key={String(value)}
              type="button"
              aria-pressed={full === value}
              onClick={() => setFull(value)}
              className={cn('h-8 px-3 text-[13px]', full === value ? 'bg-muted font-medium' : 'text-fg-2')}
            >
              {value ? 'Full text' : 'New part only'}
            </button>
          ))}
        </div>
      ) : null}
      {text ? (
        <MonoBlock text={text} copyLabel="Copy text" />
      ) : (
        <p className="text-[13px] text-fg-2">This message has no text.</p>
      )}
    </div>
  );
}

function Attachments({ m }: { m: InboundMessage }) {
  if (m.attachments.length === 0) return <p className="text-[13px] text-fg-2">No attachments.</p>;
  return (
    <ul className="divide-y divide-line rounded-lg border border-line text-[13px]">
      {m.attachments.map((a, i) => (
        <li key={`${a.filename}-${i}`} className="flex items-center gap-2 px-3 py-2">
          <Paperclip aria-hidden="true" size={14} className="shrink-0 text-fg-2" />
          <a href={a.url} download={a.filename} className="min-w-0 truncate text-link hover:underline">
            {a.filename || '(unnamed)'}
          </a>
          <span className="ml-auto shrink-0 text-fg-2 tabular">
            {a.contentType} · {formatBytes(a.size)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function OpenMessage({ m }: { m: InboundMessage }) {
  const raw = useMutation({ mutationFn: () => downloadRaw(m.messageId) });
  return (
    <div className="mt-3 space-y-3">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-[13px]">
        <dt className="text-fg-2">From</dt>
        <dd className="break-all">{m.from || '—'}</dd>
        <dt className="text-fg-2">To</dt>
        <dd className="break-all">{m.to.join(', ') || '—'}</dd>
        {m.cc.length > 0 ? (
          <>
            <dt className="text-fg-2">Cc</dt>
            <dd className="break-all">{m.cc.join(', ')}</dd>
          </>
        ) : null}
        <dt className="text-fg-2">Message id</dt>
        <dd>
          <CopyableId id={m.messageId} what="message" />
        </dd>
        {m.inReplyToEmailId ? (
          <>
            <dt className="text-fg-2">Answers</dt>
            <dd>
              <Link to={`/emails/${m.inReplyToEmailId}`} className="text-link hover:underline">
                The email it replies to
              </Link>
            </dd>
          </>
        ) : null}
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <Button disabled={raw.isPending} onClick={() => raw.mutate()}>
          <Download aria-hidden="true" size={14} />
          Download raw (.eml)
        </Button>
        {raw.isError ? (
          <p role="alert" className="text-[13px] text-[var(--tone-danger)]">
            {raw.error.message}
          </p>
        ) : null}
      </div>
      <UrlTabs
        label="Message content"
        tabs={[
          {
            value: 'html',
            label: 'HTML',
            content: m.html ? (
              <InboxPreview html={m.html} />
            ) : (
              <p className="text-[13px] text-fg-2">This message has no HTML part.</p>
            ),
          },
          { value: 'text', label: 'Text', content: <TextPart m={m} /> },
          {
            value: 'attachments',
            label: `Attachments (${m.attachments.length})`,
            content: <Attachments m={m} />,
          },
          {
            value: 'json',
            label: 'JSON',
            content: <MonoBlock text={JSON.stringify(m, null, 2)} copyLabel="Copy JSON" />,
          },
        ]}
      />
    </div>
  );
}

export function Thread({ conversation, openId }: { conversation: Conversation; openId: string | null }) {
  const [, setParams] = useSearchParams();
  const open = conversation.messages.find((m) => m.messageId === openId) ?? conversation.latest;
  const select = (id: string) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      copy.set('message', id);
      return copy;
    });
  return (
    <section aria-labelledby="thread-subject" className="min-w-0">
      <h2 id="thread-subject" className="mb-3 text-[16px] leading-6 font-semibold break-words">
        {conversation.subject || '(no subject)'}
      </h2>
      <ol className="space-y-2">
        {conversation.messages.map((m) => {
          const isOpen = m.messageId === open.messageId;
          return (
            <li key={m.messageId} className="rounded-lg border border-line p-3">
              <article aria-label={`Message from ${displayName(m.from)}`}>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[13px]">
                  {isOpen ? (
                    <span className="font-medium">{displayName(m.from)}</span>
                  ) : (
                    <button
                      type="button"
                      className="font-medium text-link hover:underline"
                      onClick={() => select(m.messageId)}
                    >
                      {displayName(m.from)}
                    </button>
                  )}
                  <MessagingBadge kind="spam" state={m.spamVerdict} />
                  <span className="ml-auto text-fg-2">
                    <Time value={m.receivedAt} />
                  </span>
                </div>
                {isOpen ? (
                  <OpenMessage m={m} />
                ) : (
                  <p className="mt-1 truncate text-[13px] text-fg-2">{m.strippedText ?? m.text ?? ''}</p>
                )}
              </article>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
