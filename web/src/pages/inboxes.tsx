// Inboxes: Name, Messages, Last received. The public API lists received messages, not inboxes (an
// inbox is made by the operator through the admin API), so the inboxes shown are those the team's
// latest mail reached; "Look further back" reads older pages for quieter ones.
import { Link } from 'react-router';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { inboxesOf, useInboundMessages } from './inbox-messages.ts';

export default function Inboxes() {
  const session = useSignedIn();
  const { query, messages } = useInboundMessages();
  const inboxes = inboxesOf(messages);
  const command = `herald admin inboxes create --team ${session.team.id} --name Support --address support@${session.instance.mailDomain}`;

  return (
    <>
      <title>Inboxes · Herald</title>
      <PageHeader
        title="Inboxes"
        facts={<span>Mail received at the team's inbox addresses, threaded; spam is left out.</span>}
      />
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.isPending && inboxes.length === 0 ? (
        <EmptyState title="No mail received yet">
          <p>
            Inboxes are added by the operator of this Herald. Mail sent to an inbox's address (or address+anything)
            appears here, threaded, and is posted to your webhooks as <code>email.received</code>.
          </p>
          <div className="mt-3 text-left">
            <MonoBlock copyLabel="Copy command" text={command} />
          </div>
        </EmptyState>
      ) : (
        <>
          <Table label="Inboxes">
            <colgroup>
              <col />
              <col className="hidden w-[140px] sm:table-column" />
              <col className="w-[130px]" />
            </colgroup>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className="hidden text-right sm:table-cell">Messages</Th>
                <Th>Last received</Th>
              </tr>
            </thead>
            <tbody>
              {query.isPending ? (
                <SkeletonRows rows={3} columns={3} />
              ) : (
                inboxes.map((inbox) => (
                  <tr key={inbox.id} className="hover:bg-surface">
                    <Td>
                      <Link to={`/inboxes/${encodeURIComponent(inbox.id)}`} className="font-medium hover:underline">
                        {inbox.name}
                      </Link>
                    </Td>
                    <Td className="hidden text-right tabular sm:table-cell">
                      {inbox.messages}
                      {query.hasNextPage ? '+' : ''}
                    </Td>
                    <Td className="text-fg-2">
                      <Time value={inbox.lastReceivedAt} />
                    </Td>
                  </tr>
                ))
              )}
            </tbody>
          </Table>
          {query.hasNextPage ? (
            <div className="mt-3 flex flex-wrap items-center gap-3 text-[13px] text-fg-2">
              <Button disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                Look further back
              </Button>
              <span>Inboxes that received nothing lately appear as older mail is read.</span>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}
