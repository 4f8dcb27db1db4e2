// Request and response schemas of /v1/contactBooks/{contactBookId}/segments (contract: Segment, Segments).
import { z } from 'zod';
import { cursorParam, limitParam } from '../platform/pagination.ts';
import { Definition } from './definition.ts';

/** Contract Limits: 100 segments per book; name 80, description 280; contacts page 1 to 100, default 50. */
export const SEGMENTS_PER_BOOK_MAX = 100;
export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 280;
export const CONTACTS_LIMIT_MAX = 100;
export const CONTACTS_LIMIT_DEFAULT = 50;
/** Herald's preview: how many of the matching contacts it shows (the dashboard's first matches). */
export const PREVIEW_CONTACTS = 20;

const definitionDescription =
  'version 1; match `all` or `any`; conditions (at most 20 counting those inside groups). Condition `type`s: ' +
  '`email` (op equals, not_equals, contains, ends_with; value), `first_name` and `last_name` (op equals, not_equals, contains, ' +
  'is_set, is_empty; value), `subscribed` (op is; value true/false), `added` (op before, after with an ISO date value; ' +
  'in_last_days with a number of days), `property` (key: a variable of the book; op equals, not_equals, contains, is_set, ' +
  'is_empty, gt, gte, lt, lte; value), `email_activity` (event received, opened, clicked; op in_last_days with days, ever, ' +
  'never; optional campaignId), `email_problem` (event bounced, complained; op ever, never), `journey` (op is_in, completed, ' +
  'exited, not_in; journeyId), `group` (match; conditions of any other type: groups nest one level only). Text comparisons ignore case.';

const fields = {
  name: z.string().trim().min(1).max(NAME_MAX).describe('Unique within the contact book'),
  description: z.string().max(DESCRIPTION_MAX).nullable(),
  definition: Definition.describe(definitionDescription),
};

export const CreateSegmentBody = z.object({
  name: fields.name,
  description: fields.description.optional(),
  definition: fields.definition,
});

export const UpdateSegmentBody = z.object({
  name: fields.name.optional(),
  description: fields.description.optional(),
  definition: fields.definition.optional(),
});

export const BookParams = z.object({ contactBookId: z.string().min(1).max(100) });
export const SegmentParams = BookParams.extend({ segmentId: z.string().min(1).max(100) });

export const SegmentContactsQuery = z.object({
  cursor: cursorParam,
  limit: limitParam(CONTACTS_LIMIT_MAX, CONTACTS_LIMIT_DEFAULT),
});

export const Segment = z.object({
  id: z.string(),
  contactBookId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  definition: Definition,
  count: z.number().int().describe('Contacts matching right now; 0 while the segment has problems'),
  problems: z.array(z.string()).describe('Why the segment matches nothing, e.g. a property removed from the book'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const SegmentList = z.object({ data: z.array(Segment) });

export const DeletedSegment = z.object({ id: z.string(), deleted: z.boolean() });

export const SegmentContact = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  subscribed: z.boolean().describe('false for a double opt-in contact who has not confirmed'),
  properties: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const SegmentContactsPage = z.object({
  data: z.array(SegmentContact),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
});

export const PreviewSegmentBody = z.object({
  definition: fields.definition,
  segmentId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'A segment of this book being redefined: its definition is checked as the update would check it (journeys and campaigns it already names are not asked again). Left out: as a create checks it',
    ),
});

export const SegmentPreview = z.object({
  count: z.number().int().describe('Contacts the definition matches right now; 0 while it has problems'),
  problems: z.array(z.string()).describe('Why the definition matches nothing, as a stored segment would say'),
  contacts: z
    .array(SegmentContact)
    .describe(`The first ${PREVIEW_CONTACTS} matching contacts, ordered by id (creation order)`),
});

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
