// Received mail as the inbox pages read it. The API lists messages (newest first, spam left out,
// optionally one inbox's) but has no list of inboxes: the inboxes page gathers them from the
// messages, and a thread is the messages sharing a conversationId. Pages of 100 accumulate ("Load
// older"), so a conversation split across pages comes together as they load.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import type { components } from '../api/schema';

export type InboundMessage = components['schemas']['InboundMessage'];

const PAGE_SIZE = 100;

export function useInboundMessages(inbox?: string) {
  const query = useInfiniteQuery({
    queryKey: ['inbound', 'list', inbox ?? null],
    queryFn: ({ pageParam, signal }) =>
      must(
        api.GET('/api/v1/inbound/messages', {
          params: { query: { limit: PAGE_SIZE, cursor: pageParam, inbox } },
          signal,
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const messages = query.data?.pages.flatMap((page) => page.data) ?? [];
  return { query, messages };
}

export interface InboxSummary {
  id: string;
  name: string;
  lastReceivedAt: string;
  /** Among the messages loaded so far. */
  messages: number;
}

/** The inboxes the loaded messages name, most recently received first. */
export function inboxesOf(messages: InboundMessage[]): InboxSummary[] {
  const byId = new Map<string, InboxSummary>();
  for (const m of messages) {
    const known = byId.get(m.inbox.id);
    if (known) known.messages += 1;
    else byId.set(m.inbox.id, { ...m.inbox, lastReceivedAt: m.receivedAt, messages: 1 });
  }
  return [...byId.values()];
}

export interface Conversation {
  id: string;
  subject: string;
  /** Oldest first, as a thread reads. */
  messages: InboundMessage[];
  latest: InboundMessage;
}

/** Threads by conversationId, the most recently active first; a thread's subject is its first message's. */
export function conversationsOf(messages: InboundMessage[]): Conversation[] {
  const byId = new Map<string, InboundMessage[]>();
  for (const m of messages) {
    const thread = byId.get(m.conversationId);
    if (thread) thread.push(m);
    else byId.set(m.conversationId, [m]);
  }
  return [...byId.entries()].map(([id, newestFirst]) => {
    const oldestFirst = [...newestFirst].reverse();
    return { id, subject: oldestFirst[0]!.subject, messages: oldestFirst, latest: newestFirst[0]! };
  });
}

/** "Ada Lovelace <ada@example.com>" → "Ada Lovelace"; a bare address stays itself. */
export function displayName(address: string): string {
  const named = /^\s*"?([^"<]+?)"?\s*<[^>]+>\s*$/.exec(address);
  return named ? named[1]! : address || '(no sender)';
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
