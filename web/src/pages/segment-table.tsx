// Segments as a table: Name, Book (on the index), Contacts (the live count; a warning tag when the
// segment has problems and so matches nobody), Conditions, Updated.
import { Link } from 'react-router';
import { formatCount } from '../ui/format.ts';
import { Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { bookTitle, type Book, type Segment } from './contact-queries.tsx';

const conditionCount = (s: Segment) =>
  s.definition.conditions.reduce((n, c) => n + (c.type === 'group' ? c.conditions.length : 1), 0);

export const segmentPath = (s: Pick<Segment, 'id' | 'contactBookId'>) =>
  `/segments/${s.id}?book=${encodeURIComponent(s.contactBookId)}`;

export function SegmentTable({
  segments,
  pending,
  showBook,
}: {
  segments: (Segment & { book?: Book })[];
  pending: boolean;
  showBook: boolean;
}) {
  const columns = showBook ? 5 : 4;
  return (
    <Table label="Segments">
      <colgroup>
        <col />
        {showBook ? <col className="hidden w-[22%] md:table-column" /> : null}
        <col className="w-[130px]" />
        <col className="hidden w-[100px] sm:table-column" />
        <col className="hidden w-[130px] sm:table-column" />
      </colgroup>
      <thead>
        <tr>
          <Th>Name</Th>
          {showBook ? <Th className="hidden md:table-cell">Book</Th> : null}
          <Th className="text-right">Contacts</Th>
          <Th className="hidden text-right sm:table-cell">Conditions</Th>
          <Th className="hidden sm:table-cell">Updated</Th>
        </tr>
      </thead>
      <tbody>
        {pending && segments.length === 0 ? (
          <SkeletonRows rows={3} columns={columns} />
        ) : (
          segments.map((s) => (
            <tr key={s.id} className="hover:bg-surface">
              <Td>
                <Link to={segmentPath(s)} className="hover:underline">
                  {s.name}
                </Link>
              </Td>
              {showBook ? (
                <Td className="hidden text-fg-2 md:table-cell">
                  {s.book ? (
                    <Link to={`/contacts/${s.book.id}`} className="hover:underline">
                      {bookTitle(s.book)}
                    </Link>
                  ) : null}
                </Td>
              ) : null}
              <Td className="text-right tabular">
                {s.problems.length > 0 ? (
                  <span title={s.problems.join('\n')}>
                    <Tag tone="warning">Problem</Tag>
                  </span>
                ) : (
                  formatCount(s.count)
                )}
              </Td>
              <Td className="hidden text-right tabular sm:table-cell">{conditionCount(s)}</Td>
              <Td className="hidden text-fg-2 sm:table-cell">
                <Time value={s.updatedAt} />
              </Td>
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}
