// Segment rows as the contract's Segment and segment contact shapes.
import type { ReadySegment } from './evaluate.ts';
import type { SegmentContactRow } from './matching-queries.ts';

export function segmentView(segment: ReadySegment, count: number) {
  const { row } = segment;
  return {
    id: row.id,
    contactBookId: row.contact_book_id,
    name: row.name,
    description: row.description,
    definition: segment.definition,
    count,
    problems: segment.problems,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function segmentContactView(row: SegmentContactRow) {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    subscribed: row.subscribed,
    properties: row.properties,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
