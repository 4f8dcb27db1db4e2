// The team's audit log: Time, Action, Target, Path, Status; cursor paging in the URL.
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

export function TeamAudit() {
  const [cursor, setCursor] = useUrlParam('cursor');
  const log = useQuery({
    queryKey: ['audit-log', cursor],
    queryFn: ({ signal }) =>
      must(api.GET('/api/v1/audit-log', { params: { query: { cursor: cursor ?? undefined, limit: 50 } }, signal })),
    placeholderData: (previous) => previous,
  });
  if (log.isError) return <ErrorState error={log.error} onRetry={() => void log.refetch()} />;
  if (log.data?.data.length === 0 && !cursor)
    return (
      <EmptyState title="Nothing audited yet">
        Creating or revoking a key, inviting, changing or removing a member and changing suppressions are recorded here.
      </EmptyState>
    );
  return (
    <>
      <Table label="Audit log">
        <colgroup>
          <col className="w-[110px]" />
          <col className="w-[150px]" />
          <col className="hidden sm:table-column" />
          <col className="hidden md:table-column" />
          <col className="w-[64px]" />
        </colgroup>
        <thead>
          <tr>
            <Th>Time</Th>
            <Th>Action</Th>
            <Th className="hidden sm:table-cell">Target</Th>
            <Th className="hidden md:table-cell">Path</Th>
            <Th className="text-right">Status</Th>
          </tr>
        </thead>
        <tbody>
          {log.isPending ? (
            <SkeletonRows rows={5} columns={5} />
          ) : (
            log.data.data.map((entry) => (
              <tr key={entry.id}>
                <Td className="text-fg-2">
                  <Time value={entry.createdAt} />
                </Td>
                <Td className="font-mono text-[12px]" title={entry.key.name ? `by key ${entry.key.name}` : undefined}>
                  {entry.action ?? 'read'}
                </Td>
                <Td className="hidden font-mono text-[12px] sm:table-cell">{entry.target ?? '—'}</Td>
                <Td className="hidden font-mono text-[12px] md:table-cell">
                  {entry.method} {entry.path}
                  {entry.query ? `?${entry.query}` : ''}
                </Td>
                <Td className="text-right tabular" title={entry.errorCode ?? undefined}>
                  {entry.status}
                </Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <Pager cursor={cursor} nextCursor={log.data?.nextCursor} onCursor={setCursor} />
    </>
  );
}
