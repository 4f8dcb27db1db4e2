// One inbox: its name, address and id (GET /v1/inbound/inboxes/{id}), then conversations | thread,
// side by side from 768 px, one at a time below (the open conversation is ?conversation= in the
// URL). An unknown inbox, a deleted one and another team's answer 404 alike: the not-found state.
import { useQuery } from '@tanstack/react-query';
import { MessagesSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { CopyableId, CopyButton } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { Time } from '../ui/time.tsx';
import {
  conversationsOf,
  displayName,
  inboxQuery,
  useInboundMessages,
  type Conversation,
  type Inbox,
} from './inbox-messages.ts';
import { Thread } from './inbox-thread.tsx';

function InboxNotFound() {
  return (
    <>
      <title>Not found · Herald</title>
      <PageHeader title="Not found" />
      <p className="text-[14px] text-fg-2">No inbox with this id exists in this team.</p>
      <p className="mt-4">
        <Link className="text-link underline underline-offset-2" to="/inboxes">
          Back to Inboxes
        </Link>
      </p>
    </>
  );
}

function ConversationList({ conversations, openId }: { conversations: Conversation[]; openId: string | null }) {
  const [params] = useSearchParams();
  const linkTo = (id: string) => {
    const copy = new URLSearchParams(params);
    copy.set('conversation', id);
    copy.delete('message');
    return `?${copy.toString()}`;
  };
  return (
    <ul className="divide-y divide-line">
      {conversations.map((c) => {
        const current = c.id === openId;
        return (
          <li key={c.id}>
            <Link
              to={linkTo(c.id)}
              aria-current={current ? 'true' : undefined}
              className={cn('block px-3 py-2 text-[13px] hover:bg-surface', current && 'bg-muted')}
            >
              <span className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate font-medium">{c.subject || '(no subject)'}</span>
                <span className="shrink-0 text-[12px] text-fg-2">
                  <Time value={c.latest.receivedAt} />
                </span>
              </span>
              <span className="flex items-center gap-2 text-fg-2">
                <span className="min-w-0 flex-1 truncate">{displayName(c.latest.from)}</span>
                {c.messages.length > 1 ? (
                  <span className="inline-flex shrink-0 items-center gap-1 tabular">
                    <MessagesSquare aria-hidden="true" size={12} />
                    {c.messages.length} messages
                  </span>
                ) : null}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function InboxHeader({ inbox, facts }: { inbox: Inbox; facts?: ReactNode }) {
  return (
    <>
      <title>{`${inbox.name} · Inboxes · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/inboxes" className="hover:underline">
          Inboxes
        </Link>
      </nav>
      <PageHeader
        title={inbox.name}
        facts={
          <>
            <span className="inline-flex min-w-0 items-center gap-0.5">
              <span className="font-mono text-[12px] break-all">{inbox.address}</span>
              <CopyButton value={inbox.address} label="Copy inbox address" />
            </span>
            <CopyableId id={inbox.id} what="inbox" />
            {facts}
          </>
        }
        actions={<CopyCurl path={`/api/v1/inbound/messages?inbox=${encodeURIComponent(inbox.id)}`} />}
      />
    </>
  );
}

export default function InboxDetail() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const inbox = useQuery(inboxQuery(id));
  const { query, messages } = useInboundMessages(id);
  if (inbox.isPending || (query.isPending && !inbox.isError)) return <Loading label="Loading the inbox" />;
  if (inbox.isError && isNotFound(inbox.error)) return <InboxNotFound />;
  if (inbox.isError) return <ErrorState error={inbox.error} onRetry={() => void inbox.refetch()} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (messages.length === 0)
    return (
      <>
        <InboxHeader inbox={inbox.data} />
        <EmptyState title="No mail received yet">
          <p>
            Mail sent to <span className="font-mono">{inbox.data.address}</span> (or to{' '}
            <span className="font-mono">{inbox.data.address.replace('@', '+anything@')}</span>) appears here, threaded,
            and is posted to your webhooks as <code>email.received</code>. Spam is left out.
          </p>
        </EmptyState>
      </>
    );

  const conversations = conversationsOf(messages);
  const requested = params.get('conversation');
  const open = conversations.find((c) => c.id === requested) ?? null;
  // From 768 px the newest conversation opens by itself; below, the list comes first.
  const shown = open ?? conversations[0]!;
  const closeConversation = () =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      for (const name of ['conversation', 'message', 'tab', 'text']) copy.delete(name);
      return copy;
    });

  return (
    <>
      <InboxHeader
        inbox={inbox.data}
        facts={
          <>
            <span>
              {conversations.length} {conversations.length === 1 ? 'conversation' : 'conversations'}
              {query.hasNextPage ? ' loaded' : ''}
            </span>
            <span>
              Last received <Time value={messages[0]!.receivedAt} />
            </span>
          </>
        }
      />
      {requested && !open ? (
        <p role="status" className="mb-3 text-[13px] text-fg-2">
          That conversation is not among the messages loaded; load older messages to find it.
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-[300px_minmax(0,1fr)]">
        <nav
          aria-label="Conversations"
          className={cn('min-w-0 self-start rounded-lg border border-line', open ? 'hidden md:block' : 'block')}
        >
          <ConversationList conversations={conversations} openId={shown.id} />
          {query.hasNextPage ? (
            <div className="border-t border-line p-2">
              <Button disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                Load older messages
              </Button>
            </div>
          ) : null}
        </nav>
        <div className={cn('min-w-0', open ? 'block' : 'hidden md:block')}>
          {open ? (
            <div className="mb-3 md:hidden">
              <Button variant="ghost" onClick={closeConversation}>
                ← All conversations
              </Button>
            </div>
          ) : null}
          <Thread conversation={shown} openId={params.get('message')} />
        </div>
      </div>
    </>
  );
}
