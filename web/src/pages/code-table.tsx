// The code log's table: Recipient, Channel, Status, Risk (level + score), first reason "+n",
// Attempts left, Created. Each row is a disclosure (the open one is ?id= in the URL) showing every
// risk reason and the SMS delivery (code-details.tsx).
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment } from 'react';
import { MessagingBadge, RiskBadge } from '../ui/messaging-badges.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { CodeDetails } from './code-details.tsx';
import type { Verification } from './sms-format.ts';

const COLUMNS = 7;

function CodeRow({ v, expanded, onToggle }: { v: Verification; expanded: boolean; onToggle: () => void }) {
  const Chevron = expanded ? ChevronDown : ChevronRight;
  const [first, ...more] = v.risk.reasons;
  return (
    <Fragment>
      <tr className="hover:bg-surface">
        <Td>
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={expanded ? `code-${v.id}` : undefined}
            className="flex max-w-full items-center gap-1 text-left text-link hover:underline"
            onClick={onToggle}
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
          <td colSpan={COLUMNS} className="border-b border-line bg-surface px-3">
            <CodeDetails v={v} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

export function CodeTable({
  label,
  rows,
  loading = false,
  dimmed = false,
  open,
  onToggle,
}: {
  label: string;
  rows: Verification[];
  /** The first read is on its way: skeleton rows of the final shape. */
  loading?: boolean;
  /** Another page or filter is on its way: the rows shown are the previous ones. */
  dimmed?: boolean;
  open: string | null;
  onToggle: (id: string) => void;
}) {
  return (
    <Table label={label} className={dimmed ? 'opacity-70' : undefined}>
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
        {loading ? (
          <SkeletonRows rows={8} columns={COLUMNS} />
        ) : (
          rows.map((v) => <CodeRow key={v.id} v={v} expanded={open === v.id} onToggle={() => onToggle(v.id)} />)
        )}
      </tbody>
    </Table>
  );
}
