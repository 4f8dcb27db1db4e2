// The code log's table: Recipient, Channel, Status, Risk (level + score), first reason "+n",
// Attempts left, Created. Each row is a disclosure (the open one is ?id= in the URL) showing every
// risk reason and the SMS delivery.
import { useQueries } from '@tanstack/react-query';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment, useEffect } from 'react';
import { Link } from 'react-router';
import { api, must } from '../api/client.ts';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { MessagingBadge, RiskBadge } from '../ui/messaging-badges.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { isNotFound } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import type { Verification } from './sms-format.ts';

export function verificationQuery(id: string) {
  return {
    queryKey: ['verify', id],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(api.GET('/api/v1/verify/{id}', { params: { path: { id } }, signal })),
    retry: (count: number, error: unknown) => !isNotFound(error) && count < 2,
    // A pending SMS code follows its message: read again until its delivery settles.
    refetchInterval: (query: { state: { data?: Verification } }) => {
      const v = query.state.data;
      return v?.status === 'pending' && (v.deliveryStatus === 'queued' || v.deliveryStatus === 'sent') ? 5000 : false;
    },
  };
}

const reasonWords: Record<string, string> = {
  wrong_code: 'Wrong code',
  expired: 'Expired',
  already_used: 'Already used',
  too_many_attempts: 'Too many attempts',
  refused: 'Refused',
};

function Details({ v }: { v: Verification }) {
  return (
    <div className="grid gap-4 py-3 text-[13px] whitespace-normal md:grid-cols-2">
      <dl className="grid grid-cols-[max-content_1fr] content-start gap-x-4 gap-y-1">
        <dt className="text-fg-2">Code id</dt>
        <dd>
          <CopyableId id={v.id} what="code" />
        </dd>
        <dt className="text-fg-2">Recipient</dt>
        <dd className="break-all">{v.to}</dd>
        <dt className="text-fg-2">Expires</dt>
        <dd>
          <Time value={v.expiresAt} mode="absolute" />
        </dd>
        <dt className="text-fg-2">Last check</dt>
        <dd>{v.reason ? (reasonWords[v.reason] ?? v.reason) : '—'}</dd>
        {v.emailId ? (
          <>
            <dt className="text-fg-2">Email</dt>
            <dd>
              <Link to={`/emails/${v.emailId}`} className="font-mono text-[12px] text-link hover:underline">
                {v.emailId}
              </Link>
            </dd>
          </>
        ) : null}
        {v.channel === 'sms' ? (
          <>
            <dt className="text-fg-2">SMS delivery</dt>
            <dd>
              <MessagingBadge kind="sms" state={v.deliveryStatus} />
            </dd>
            <dt className="text-fg-2">Provider id</dt>
            <dd className="font-mono text-[12px] break-all">{v.providerMessageId ?? '—'}</dd>
            <dt className="text-fg-2">Delivery reason</dt>
            <dd className="break-words">{v.deliveryReason ?? '—'}</dd>
          </>
        ) : null}
      </dl>
      <div className="min-w-0 space-y-3">
        <section aria-label={`Risk reasons of ${v.id}`}>
          <h3 className="mb-1 font-medium">
            Risk <RiskBadge level={v.risk.level} score={v.risk.score} />
          </h3>
          {v.risk.reasons.length === 0 ? (
            <p className="text-fg-2">No risk signal fired.</p>
          ) : (
            <ul className="space-y-1">
              {v.risk.reasons.map((r) => (
                <li key={r.code}>
                  <code className="font-mono text-[12px]">{r.code}</code> <span className="text-fg-2">{r.detail}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <CopyCurl path={`/api/v1/verify/${v.id}`} />
        <details>
          <summary className="cursor-pointer text-fg-2">JSON</summary>
          <div className="mt-2">
            <MonoBlock text={JSON.stringify(v, null, 2)} copyLabel="Copy JSON" />
          </div>
        </details>
      </div>
    </div>
  );
}

export function CodeTable({
  ids,
  open,
  onToggle,
  onMissing,
}: {
  ids: string[];
  open: string | null;
  onToggle: (id: string) => void;
  /** An id the API no longer knows for this team: the log drops it. */
  onMissing: (id: string) => void;
}) {
  // One read per row: the API has no list of codes (at most 25 rows, each cached).
  const reads = useQueries({ queries: ids.map((id) => verificationQuery(id)) });
  const missing = ids.filter((_, i) => isNotFound(reads[i]!.error)).join(' ');
  useEffect(() => {
    for (const id of missing.split(' ').filter(Boolean)) onMissing(id);
  }, [missing, onMissing]);
  return (
    <Table label="Codes">
      <colgroup>
        <col className="w-[44%] sm:w-[26%]" />
        <col className="hidden w-[80px] md:table-column" />
        <col className="w-[110px]" />
        <col className="hidden w-[120px] sm:table-column" />
        <col className="hidden lg:table-column" />
        <col className="hidden w-[100px] md:table-column" />
        <col className="hidden w-[110px] sm:table-column" />
      </colgroup>
      <thead>
        <tr>
          <Th>Recipient</Th>
          <Th className="hidden md:table-cell">Channel</Th>
          <Th>Status</Th>
          <Th className="hidden sm:table-cell">Risk</Th>
          <Th className="hidden lg:table-cell">Reasons</Th>
          <Th className="hidden text-right md:table-cell">Attempts left</Th>
          <Th className="hidden sm:table-cell">Created</Th>
        </tr>
      </thead>
      <tbody>
        {ids.map((id, i) => {
          const read = reads[i]!;
          if (read.isPending) return <SkeletonRows key={id} rows={1} columns={7} />;
          if (read.isError || !read.data) {
            return (
              <tr key={id}>
                <Td colSpan={7} className="text-fg-2">
                  <span className="font-mono text-[12px]">{id}</span>: {read.error?.message ?? 'could not be read'}
                </Td>
              </tr>
            );
          }
          const v = read.data;
          const expanded = open === v.id;
          const Chevron = expanded ? ChevronDown : ChevronRight;
          const [first, ...more] = v.risk.reasons;
          return (
            <Fragment key={id}>
              <tr className="hover:bg-surface">
                <Td>
                  <button
                    type="button"
                    aria-expanded={expanded}
                    aria-controls={expanded ? `code-${v.id}` : undefined}
                    className="flex max-w-full items-center gap-1 text-left text-link hover:underline"
                    onClick={() => onToggle(v.id)}
                  >
                    <Chevron aria-hidden="true" size={14} className="shrink-0" />
                    <span className="truncate">{v.to}</span>
                  </button>
                </Td>
                <Td className="hidden md:table-cell">{v.channel === 'sms' ? 'SMS' : 'Email'}</Td>
                <Td>
                  <MessagingBadge kind="code" state={v.status} />
                </Td>
                <Td className="hidden sm:table-cell">
                  <RiskBadge level={v.risk.level} score={v.risk.score} />
                </Td>
                <Td className="hidden text-fg-2 lg:table-cell" title={v.risk.reasons.map((r) => r.code).join(', ')}>
                  {first ? (
                    <>
                      <code className="font-mono text-[12px]">{first.code}</code>
                      {more.length > 0 ? ` +${more.length}` : ''}
                    </>
                  ) : (
                    '—'
                  )}
                </Td>
                <Td className="hidden text-right tabular md:table-cell">{v.attemptsRemaining}</Td>
                <Td className="hidden text-fg-2 sm:table-cell">
                  <Time value={v.createdAt} />
                </Td>
              </tr>
              {expanded ? (
                <tr id={`code-${v.id}`}>
                  <td colSpan={7} className="border-b border-line bg-surface px-3">
                    <Details v={v} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </Table>
  );
}
