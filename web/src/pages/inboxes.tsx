// Inboxes: Name, Address, Last received, newest first (GET /v1/inbound/inboxes), 50 a page with the
// cursor in the URL. An inbox that has received nothing yet is listed too. Inboxes are made by the
// operator of this Herald (the admin API), so the empty state shows that command.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useSignedIn } from '../api/session.ts';
import { CopyButton } from '../ui/copy-button.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { inboxListQuery } from './inbox-messages.ts';

export default function Inboxes() {
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const cursor = params.get('cursor') ?? undefined;
  const list = useQuery({ ...inboxListQuery(cursor), placeholderData: keepPreviousData });
  const inboxes = list.data?.data ?? [];
  const command = `herald admin inboxes create --team ${session.team.id} --name Support --address support@${session.instance.mailDomain}`;
  const setCursor = (next: string | null) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      if (next) copy.set('cursor', next);
      else copy.delete('cursor');
      return copy;
    });

  return (
    <>
      <title>Inboxes · Herald</title>
      <PageHeader
        title="Inboxes"
        facts={<span>Mail received at the team's inbox addresses, threaded; spam is left out.</span>}
      />
      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.isPending && inboxes.length === 0 && !cursor ? (
        <EmptyState title="No inboxes yet">
          <p>
            Inboxes are added by the operator of this Herald. Mail sent to an inbox's address (or address+anything)
            appears here, threaded, and is posted to your webhooks as <code>email.received</code>.
          </p>
          <div className="mt-3 text-left">
            <MonoBlock copyLabel="Copy command" text={command} />
          </div>
        </EmptyState>
      ) : (
        <Table label="Inboxes" className={list.isPlaceholderData ? 'opacity-70' : undefined}>
          <colgroup>
            <col className="sm:w-[28%]" />
            <col className="hidden sm:table-column" />
            <col className="w-[112px] sm:w-[140px]" />
          </colgroup>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th className="hidden sm:table-cell">Address</Th>
              <Th>Last received</Th>
            </tr>
          </thead>
          <tbody>
            {list.isPending ? (
              <SkeletonRows rows={3} columns={3} />
            ) : (
              inboxes.map((inbox) => (
                <tr key={inbox.id} className="hover:bg-surface">
                  <Td>
                    <Link to={`/inboxes/${encodeURIComponent(inbox.id)}`} className="font-medium hover:underline">
                      {inbox.name}
                    </Link>
                    {/* Under 640 px the address goes under the name, whole, rather than cut in a column. */}
                    <span className="block font-mono text-[12px] break-all whitespace-normal text-fg-2 sm:hidden">
                      {inbox.address}
                    </span>
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <span className="flex min-w-0 items-center gap-0.5">
                      <span className="truncate font-mono text-[12px]" title={inbox.address}>
                        {inbox.address}
                      </span>
                      <CopyButton value={inbox.address} label={`Copy the address of ${inbox.name}`} />
                    </span>
                  </Td>
                  <Td className="text-fg-2">
                    {inbox.lastReceivedAt ? <Time value={inbox.lastReceivedAt} /> : 'No mail yet'}
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <Pager cursor={cursor ?? null} nextCursor={list.data?.nextCursor} onCursor={setCursor} />
    </>
  );
}
