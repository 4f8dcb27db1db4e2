// The segments area as other areas use it (journeys, campaigns): a segment as one live query.
export { bookOfSegment } from './queries.ts';
export { contactInSegment, countSegmentContacts, segmentContactIds, segmentContactsQuery } from './matching-queries.ts';
export { segmentInUse, registerSegmentHooks, type SegmentHooks } from './hooks.ts';
export { Definition as SegmentDefinition } from './definition.ts';
