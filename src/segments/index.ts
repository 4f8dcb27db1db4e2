// The segments area as other areas use it (journeys, campaigns): a segment as one live query.
export { bookOfSegment } from './queries.ts';
export { contactInSegment, countSegmentContacts, segmentContactIds, segmentContactsQuery } from './matching-queries.ts';
export { segmentInUse } from './in-use.ts';
export { Definition as SegmentDefinition } from './definition.ts';
