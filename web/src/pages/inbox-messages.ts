// Received mail as the inbox pages read it: the team's inboxes (GET /v1/inbound/inboxes, newest
// first, cursor-paged; one by id), and an inbox's messages (newest first, spam left out; 404 for an
// inbox that is not the team's), pages of 100 accumulating ("Load older messages"), so a
// conversation split across pages comes together as they load. A thread is the messages sharing
// a conversationId.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import type { components } from '../api/schema';
import { isNotFound } from '../ui/states.tsx';

export type InboundMessage = components['schemas']['InboundMessage'];
export type Inbox = components['schemas']['Inbox'];

const PAGE_SIZE = 100;
export const INBOX_PAGE_SIZE = 50;

export function inboxListQuery(cursor: string | undefined) {
  return {
    queryKey: ['inbound', 'inboxes', cursor ?? null],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(api.GET('/api/v1/inbound/inboxes', { params: { query: { cursor, limit: INBOX_PAGE_SIZE } }, signal })),
  };
}

export function inboxQuery(id: string) {
  return {
    queryKey: ['inbound', 'inbox', id],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(api.GET('/api/v1/inbound/inboxes/{id}', { params: { path: { id } }, signal })),
    retry: (count: number, error: unknown) => !isNotFound(error) && count < 2,
  };
}

export function useInboundMessages(inbox: string) {
  const query = useInfiniteQuery({
    queryKey: ['inbound', 'list', inbox],
    queryFn: ({ pageParam, signal }) =>
      must(
        api.GET('/api/v1/inbound/messages', {
          params: { query: { limit: PAGE_SIZE, cursor: pageParam, inbox } },
          signal,
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: (count, error) => !isNotFound(error) && count < 2,
  });
  const messages = query.data?.pages.flatMap((page) => page.data) ?? [];
  return { query, messages };
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
