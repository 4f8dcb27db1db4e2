// Request and response schemas of /v1/campaigns: useSend's shape (so usesend-js works unchanged)
// plus Herald's segmentId and templateId. Each limit answers 400 naming the field.
import { z } from 'zod';
import { CAMPAIGN_STATUSES, PAUSED_REASONS } from '../db/schema-campaigns.ts';
import { EMAIL_STATUSES } from '../emails/index.ts';
import { grouped } from '../platform/grouped-number.ts';
import { cursorParam, limitParam, pageParam } from '../platform/pagination.ts';

export const NAME_MAX = 200;
export const SUBJECT_MAX = 998;
export const PREVIEW_MAX = 500;
export const HTML_MAX = 1_000_000;
export const ADDRESSES_MAX = 50;
export const BATCH_SIZE_MAX = 100_000;
export const BATCH_SIZE_DEFAULT = 500;
export const BATCH_WINDOW_MAX = 1_440;
export const PAGE_SIZE = 30;
export const RECIPIENTS_LIMIT_MAX = 100;
export const RECIPIENTS_LIMIT_DEFAULT = 50;

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const Id = z.string().min(1).max(64);
const Addresses = z
  .union([z.string().min(3).max(320), z.string().min(3).max(320).array().max(ADDRESSES_MAX)])
  .describe(`an address, or up to ${ADDRESSES_MAX}`);
const BatchSize = z
  .number()
  .int()
  .min(1)
  .max(BATCH_SIZE_MAX)
  .describe(`emails per batch window, 1 to ${grouped(BATCH_SIZE_MAX)}`);

const campaignFields = {
  name: z.string().trim().min(1).max(NAME_MAX),
  from: z.string().min(3).max(320).describe('`address` or `Name <address>`, on a verified domain of the team'),
  subject: z.string().min(1).max(SUBJECT_MAX),
  contactBookId: Id,
  previewText: z.string().max(PREVIEW_MAX).optional(),
  html: z.string().min(1).max(HTML_MAX).optional(),
  content: z
    .string()
    .min(1)
    .max(HTML_MAX)
    .optional()
    .describe("useSend's editor document (a JSON string of its TipTap tree), rendered to html when stored"),
  replyTo: Addresses.optional(),
  cc: Addresses.optional(),
  bcc: Addresses.optional(),
  batchSize: BatchSize.optional(),
  batchWindowMinutes: z
    .number()
    .int()
    .min(0)
    .max(BATCH_WINDOW_MAX)
    .optional()
    .describe(`minutes between batches, 0 (as fast as delivery allows) to ${BATCH_WINDOW_MAX}`),
  segmentId: Id.optional().describe('Herald: only the contacts of the book this segment matches'),
  templateId: Id.optional().describe(
    "Herald: the body is this template's. html, content and templateId are one body: give one (a change replaces the others)",
  ),
};

export const CreateCampaignBody = z.object({
  ...campaignFields,
  sendNow: z.boolean().optional().describe('schedule it at once, as POST …/schedule with no time'),
  scheduledAt: z.iso.datetime({ offset: true }).optional().describe('schedule it for this time'),
});
export type CreateCampaignInput = z.infer<typeof CreateCampaignBody>;

export const PatchCampaignBody = z
  .object(campaignFields)
  .partial()
  .extend({
    segmentId: Id.nullable()
      .optional()
      .describe('Herald: only the contacts of the book this segment matches; null: the whole book'),
  });
export type PatchCampaignInput = z.infer<typeof PatchCampaignBody>;

export const ScheduleBody = z.object({
  scheduledAt: z.iso.datetime({ offset: true }).optional().describe('when to start; now when left out'),
  batchSize: BatchSize.optional(),
});

export const CampaignParams = z.object({ id: Id });

export const TEST_ADDRESSES_MAX = 5;
export const TestBody = z.object({
  to: z
    .array(z.string().min(3).max(320))
    .min(1)
    .max(TEST_ADDRESSES_MAX)
    .describe(`1 to ${TEST_ADDRESSES_MAX} addresses, each sent one copy`),
});
export const TestResult = z.object({ data: z.object({ emailId: z.string(), to: z.string() }).array() });

export const CampaignStatus = z.enum(CAMPAIGN_STATUSES);

export const ListQuery = z.object({
  page: pageParam().describe(`page number from 1, ${PAGE_SIZE} campaigns a page`),
  status: CampaignStatus.optional(),
  search: z.string().max(NAME_MAX).optional().describe('in the name or subject, ignoring case'),
});

const Counters = {
  total: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  unsubscribed: z.number().int(),
};

export const CampaignSummary = z.object({
  id: z.string(),
  name: z.string(),
  from: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: CampaignStatus,
  scheduledAt: z.string().nullable(),
  ...Counters,
  // Herald, beside useSend's list fields: the audience and the engagement, for a list worth reading.
  contactBookId: z.string(),
  segmentId: z.string().nullable(),
  opened: z.number().int(),
  clicked: z.number().int(),
});

export const Campaign = CampaignSummary.extend({
  previewText: z.string().nullable(),
  templateId: z.string().nullable(),
  html: z.string().nullable(),
  content: z.string().nullable(),
  batchSize: z.number().int(),
  batchWindowMinutes: z.number().int(),
  bounced: z.number().int(),
  hardBounced: z.number().int(),
  complained: z.number().int(),
  replyTo: z.string().array(),
  cc: z.string().array(),
  bcc: z.string().array(),
  pausedReason: z.enum(PAUSED_REASONS).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
}).meta({ id: 'Campaign' });

export const CampaignList = z.object({ campaigns: CampaignSummary.array(), totalPage: z.number().int() });
export const Success = z.object({ success: z.literal(true) });

export const RecipientsQuery = z.object({
  status: z.enum(EMAIL_STATUSES).optional().describe("the email's latestStatus"),
  cursor: cursorParam,
  limit: limitParam(RECIPIENTS_LIMIT_MAX, RECIPIENTS_LIMIT_DEFAULT),
});

export const CampaignRecipient = z.object({
  emailId: z.string(),
  contactId: z.string(),
  email: z.string(),
  status: z.enum(EMAIL_STATUSES),
  updatedAt: z.string(),
});

export const RecipientList = z.object({ data: CampaignRecipient.array(), nextCursor: z.string().nullable() });
