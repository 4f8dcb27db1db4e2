// The log's table: Recipient (first address, "+2"), Status, Subject, Domain, Sent. Fixed column
// widths and 36 px rows, skeleton rows of the same shape while the page loads, so nothing shifts
// when the rows arrive; at 375 px Recipient, Status and Subject stay.
import { Link } from 'react-router';
import type { paths } from '../api/schema';
import { StatusBadge, Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

type EmailRow = paths['/api/v1/emails']['get']['responses'][200]['content']['application/json']['data'][number];

export const simulated = (address: string) => /@simulator\.herald\.test>?$/i.test(address);

/** The domain of a From address (`Name <a@b>` or `a@b`): the built-in domain's mail has no domainId. */
const fromDomain = (from: string) => /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? '—';

function Recipient({ to }: { to: string | string[] }) {
  const list = Array.isArray(to) ? to : [to];
  if (list.length === 0) return <span className="text-fg-2">(cc/bcc only)</span>;
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span className="truncate">{list[0]}</span>
      {list.length > 1 ? <span className="shrink-0 text-fg-2">+{list.length - 1}</span> : null}
      {list.some(simulated) ? (
        <span className="hidden shrink-0 sm:inline-flex">
          <Tag>Simulated</Tag>
        </span>
      ) : null}
    </span>
  );
}

export function EmailsTable({
  rows,
  loading,
  stale,
  skeletonRows,
  domainName,
}: {
  rows: EmailRow[];
  /** No page yet: skeleton rows. */
  loading: boolean;
  /** The previous page shown while the next one loads. */
  stale: boolean;
  skeletonRows: number;
  domainName: (id: number) => string;
}) {
  return (
    <div aria-busy={loading || stale}>
      <Table label="Emails" className={stale ? 'opacity-70' : undefined}>
        <colgroup>
          <col className="w-[44%] sm:w-[32%] md:w-[26%]" />
          <col className="w-[124px] sm:w-[150px]" />
          <col />
          <col className="hidden w-[18%] md:table-column" />
          <col className="hidden w-[130px] sm:table-column" />
        </colgroup>
        <thead>
          <tr>
            <Th>Recipient</Th>
            <Th>Status</Th>
            <Th>Subject</Th>
            <Th className="hidden md:table-cell">Domain</Th>
            <Th className="hidden sm:table-cell">Sent</Th>
          </tr>
        </thead>
        <tbody>
          {loading ? (
            <SkeletonRows rows={skeletonRows} columns={5} />
          ) : (
            rows.map((email) => (
              <tr key={email.id} className="hover:bg-surface">
                <Td>
                  <Link to={`/emails/${email.id}`} className="block truncate hover:underline">
                    <Recipient to={email.to} />
                  </Link>
                </Td>
                <Td>
                  <StatusBadge state={email.latestStatus} />
                </Td>
                <Td title={email.subject}>{email.subject || <span className="text-fg-2">(no subject)</span>}</Td>
                <Td className="hidden text-fg-2 md:table-cell">
                  {email.domainId === null ? fromDomain(email.from) : domainName(email.domainId)}
                </Td>
                <Td className="hidden text-fg-2 sm:table-cell">
                  <Time value={email.scheduledAt ?? email.createdAt} />
                </Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
    </div>
  );
}
