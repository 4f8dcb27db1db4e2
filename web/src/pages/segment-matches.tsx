// Who the segment as edited matches (segment-preview.tsx): the live count with its problems as
// warnings, and the first 20 matching contacts, both of the definition on screen, saved or not.
import { Link } from 'react-router';
import { formatCount } from '../ui/format.ts';
import { ErrorState } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import type { SegmentPreview } from './segment-preview.tsx';

const hint = 'mt-2 text-[13px] text-fg-2';

export function SegmentCount({
  preview,
  savedProblems,
  unsaved,
}: {
  preview: SegmentPreview;
  /** The saved segment's own problems while its definition is the one shown. */
  savedProblems: readonly string[];
  unsaved: boolean;
}) {
  const { data } = preview;
  const problems = [...new Set([...(data?.problems ?? []), ...savedProblems])];
  let body;
  if (!preview.enabled) body = <p className={hint}>Add a condition to count the contacts it matches.</p>;
  else if (preview.failure) body = <ErrorState error={preview.failure} onRetry={preview.retry} />;
  else if (preview.errors.length > 0) body = <p className={hint}>Not counted: fix what is marked in the conditions.</p>;
  else if (!data) body = <p className={hint}>Counting…</p>;
  else
    body = (
      <>
        <p role="status" aria-live="polite" className="mt-1">
          <span className="text-[28px] leading-9 font-semibold tabular">{formatCount(data.count)}</span>{' '}
          <span className="text-[13px] text-fg-2">{data.count === 1 ? 'contact matches' : 'contacts match'}</span>
        </p>
        <p className="mt-1 text-[12px] text-fg-2">
          {preview.updating ? 'Counting again…' : unsaved ? 'The conditions as edited, not saved yet.' : 'Right now.'}
        </p>
      </>
    );
  return (
    <section
      aria-labelledby="segment-count"
      aria-busy={preview.updating || undefined}
      className="rounded-lg border border-line p-4"
    >
      <h2 id="segment-count" className="text-[13px] font-medium text-fg-2">
        Live count
      </h2>
      {body}
      {problems.length > 0 ? (
        <ul
          aria-label="Problems"
          className="mt-3 space-y-1 rounded-md bg-[var(--tone-warning-bg)] p-2 text-[13px] text-[var(--tone-warning)]"
        >
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function SegmentContacts({ bookId, preview }: { bookId: string; preview: SegmentPreview }) {
  const { data } = preview;
  const rows = data?.contacts ?? [];
  if (!preview.enabled || preview.failure) return null; // the count says why
  let body;
  if (preview.errors.length > 0) body = <p className={hint}>Fix the conditions to see who matches.</p>;
  else if (data && rows.length === 0) body = <p className={hint}>No contact matches these conditions.</p>;
  else
    body = (
      <>
        <Table label="Matching contacts">
          <colgroup>
            <col />
            <col className="w-[120px]" />
          </colgroup>
          <thead>
            <tr>
              <Th>Email</Th>
              <Th>Subscribed</Th>
            </tr>
          </thead>
          <tbody>
            {!data ? (
              <SkeletonRows rows={5} columns={2} />
            ) : (
              rows.map((c) => (
                <tr key={c.id} className="hover:bg-surface">
                  <Td>
                    <Link to={`/contacts/${bookId}?contact=${encodeURIComponent(c.id)}`} className="hover:underline">
                      {c.email}
                    </Link>
                  </Td>
                  <Td>{c.subscribed ? <Tag tone="success">Subscribed</Tag> : <Tag>Unsubscribed</Tag>}</Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
        {data && data.count > rows.length ? (
          <p className="text-[12px] text-fg-2 tabular">
            The first {rows.length} of {formatCount(data.count)}, in the order they were added.
          </p>
        ) : null}
      </>
    );
  return (
    <section aria-labelledby="segment-contacts" aria-busy={preview.updating || undefined} className="space-y-2">
      <h2 id="segment-contacts" className="text-[16px] leading-6 font-semibold">
        Matching contacts
      </h2>
      {body}
    </section>
  );
}
