// Request and response schemas of /v1/emails (contract: Email, POST /v1/emails, batch, list, PATCH).
import { z } from 'zod';
import { EMAIL_SOURCES, EMAIL_STATUSES } from '../db/schema-email.ts';
import { limitParam, pageParam } from '../platform/pagination.ts';
import { isAddress } from './recipients.ts';

/** Contract Limits. Sizes of attachments are decoded bytes; MB = 1024 * 1024 bytes. */
export const SUBJECT_MAX = 998;
export const BODY_MAX = 2_000_000;
const ATTACHMENTS_MAX = 10;
const FILENAME_MAX = 255;
const MB = 1024 * 1024;
const ATTACHMENT_FILE_MAX_BYTES = 7 * MB;
const ATTACHMENTS_EMAIL_MAX_BYTES = 10 * MB;
const ATTACHMENTS_BATCH_MAX_BYTES = 40 * MB;
export const VARIABLES_MAX = 200;
const VARIABLE_VALUE_MAX = 10_000;
export const BATCH_MAX = 100;
/** Herald's bound on one address list (duplicates included); the 50-distinct rule applies after. */
const ADDRESS_LIST_MAX = 1_000;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 50;

// The list lives with the table types (db/schema-email.ts); importable from here as before.
export { EMAIL_STATUSES };
export const EmailStatus = z.enum(EMAIL_STATUSES);
const EmailSource = z
  .enum(EMAIL_SOURCES)
  .describe('how the email was sent: api (the HTTP API) or smtp (SMTP submission with an API key)');

const oneLine = /^[^\r\n]*$/;

// Addresses become From/To/Cc/Reply-To headers: one line, or a name could carry a header of its own.
const Address = z
  .string()
  .max(998)
  .regex(oneLine, 'must be one line')
  .refine(isAddress, { message: 'must be an email address, or `Name <address>`' });
const AddressField = z.union([Address, Address.array().max(ADDRESS_LIST_MAX)]);
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,76}$/;

/** Decoded size of a base64 text without decoding it. */
function base64DecodedBytes(content: string): number {
  const clean = content.replace(/[\s]/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

const Attachment = z.object({
  filename: z.string().min(1).max(FILENAME_MAX).regex(oneLine, 'must be one line'),
  content: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9+/\s]*={0,2}\s*$/, 'must be base64')
    .describe('base64; at most 7 MB (7 × 1024 × 1024 bytes) decoded'),
  contentId: z
    .string()
    .min(1)
    .max(FILENAME_MAX)
    .regex(/^[\x21-\x3b\x3d\x3f-\x7e]+$/, 'must be printable ASCII without spaces or angle brackets')
    .optional()
    .describe(
      'Content-ID of an inline image, without angle brackets: the HTML shows it as `cid:<contentId>`, and the file is sent inline beside the HTML',
    ),
});

const emailFields = {
  to: AddressField.optional().describe('Optional when cc or bcc names somebody'),
  from: Address.describe('`address` or `Name <address>`, on a verified domain of the team'),
  subject: z.string().min(1).max(SUBJECT_MAX).regex(oneLine, 'must be one line').optional(),
  templateId: z.string().min(1).max(64).optional(),
  variables: z
    .record(z.string(), z.string().max(VARIABLE_VALUE_MAX))
    .refine((v) => Object.keys(v).length <= VARIABLES_MAX, { message: `at most ${VARIABLES_MAX} entries` })
    .optional(),
  replyTo: AddressField.optional(),
  cc: AddressField.optional(),
  bcc: AddressField.optional(),
  text: z.string().min(1).max(BODY_MAX).nullable().optional(),
  html: z.string().min(1).max(BODY_MAX).nullable().optional(),
  headers: z
    .record(
      z.string().regex(HEADER_NAME, 'must be a header name'),
      z.string().min(1).max(998).regex(oneLine, 'must be one line'),
    )
    .optional(),
  attachments: Attachment.array().max(ATTACHMENTS_MAX).optional(),
  scheduledAt: z.iso.datetime({ offset: true }).optional(),
  inReplyToId: z.string().min(1).max(64).nullable().optional(),
};

type EmailFields = z.infer<z.ZodObject<typeof emailFields>>;

// Rules a field schema cannot say alone; each names its field and limit.
function emailRules(email: EmailFields, ctx: z.RefinementCtx): void {
  if (email.templateId === undefined && email.subject === undefined) {
    ctx.addIssue({ code: 'custom', path: ['subject'], message: 'is required unless templateId is given' });
  }
  if (email.templateId === undefined && (email.html ?? null) === null && (email.text ?? null) === null) {
    ctx.addIssue({ code: 'custom', path: ['html'], message: 'html or text is required unless templateId is given' });
  }
  let total = 0;
  (email.attachments ?? []).forEach((attachment, index) => {
    const bytes = base64DecodedBytes(attachment.content);
    total += bytes;
    if (bytes > ATTACHMENT_FILE_MAX_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['attachments', index, 'content'],
        message: `at most 7 MB (${ATTACHMENT_FILE_MAX_BYTES} bytes) decoded; this file is ${bytes}`,
      });
    }
  });
  if (total > ATTACHMENTS_EMAIL_MAX_BYTES) {
    ctx.addIssue({
      code: 'custom',
      path: ['attachments'],
      message: `at most 10 MB (${ATTACHMENTS_EMAIL_MAX_BYTES} bytes) decoded per email; these are ${total}`,
    });
  }
}

export const SendEmailBody = z.object(emailFields).superRefine(emailRules);
export type SendEmailInput = z.infer<typeof SendEmailBody>;

export const SendBatchBody = z
  .array(SendEmailBody)
  .min(1)
  .max(BATCH_MAX)
  .superRefine((emails, ctx) => {
    const total = emails.reduce(
      (sum, e) => sum + (e.attachments ?? []).reduce((s, a) => s + base64DecodedBytes(a.content), 0),
      0,
    );
    if (total > ATTACHMENTS_BATCH_MAX_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `attachments at most 40 MB (${ATTACHMENTS_BATCH_MAX_BYTES} bytes) decoded per batch; these are ${total}`,
      });
    }
  });

export const EmailId = z.object({ emailId: z.string() });
export const BatchResult = z.object({ data: EmailId.array() });

export const EmailParams = z.object({ emailId: z.string().min(3).max(64) });

const AddressOut = z.union([z.string(), z.string().array()]);

const EmailEvent = z.object({
  emailId: z.string(),
  status: EmailStatus,
  createdAt: z.string(),
  data: z.unknown().nullable(),
});

export const Email = z.object({
  id: z.string(),
  teamId: z.number().int(),
  to: AddressOut.describe('as sent; [] for a message sent only to cc or bcc'),
  replyTo: AddressOut.optional(),
  cc: AddressOut.optional(),
  bcc: AddressOut.optional(),
  from: z.string(),
  subject: z.string(),
  html: z.string().nullable(),
  text: z.string().nullable(),
  bodyRetained: z
    .boolean()
    .describe('false once retention removed html, text and attachments (HERALD_RETENTION_BODIES_DAYS)'),
  createdAt: z.string(),
  updatedAt: z.string(),
  latestStatus: EmailStatus.describe(
    'the newest event: DELIVERY_DELAYED while a deferred email waits for its next attempt',
  ),
  attempts: z.number().int().describe('delivery attempts made so far (a wait for a backed-off destination is none)'),
  nextAttemptAt: z
    .string()
    .nullable()
    .describe('when the next delivery attempt is due, while a deferred email waits for it; else null'),
  campaignId: z.string().nullable().describe('the campaign that sent it, or null'),
  source: EmailSource,
  emailEvents: EmailEvent.array().describe('oldest first'),
});

const EmailListItem = z.object({
  id: z.string(),
  to: AddressOut,
  replyTo: AddressOut.nullable(),
  cc: AddressOut.nullable(),
  bcc: AddressOut.nullable(),
  from: z.string(),
  subject: z.string(),
  html: z.string().nullable().describe('null with fields=summary'),
  text: z.string().nullable().describe('null with fields=summary'),
  createdAt: z.string(),
  updatedAt: z.string(),
  latestStatus: EmailStatus.nullable(),
  scheduledAt: z.string().nullable(),
  domainId: z.number().int().nullable(),
  campaignId: z.string().nullable(),
  source: EmailSource,
});

export const EmailList = z.object({
  data: EmailListItem.array(),
  count: z
    .number()
    .int()
    .describe(
      'offset paging (the contract): every email the filters match; cursor paging: the number of emails in data (no total is counted)',
    ),
  nextCursor: z
    .string()
    .nullable()
    .optional()
    .describe('cursor paging only: the older page (pass it back as cursor), null on the last'),
  prevCursor: z
    .string()
    .nullable()
    .optional()
    .describe('cursor paging only: the newer page (pass it back as cursor), null on the first'),
  searchStoppedAt: z
    .string()
    .nullable()
    .optional()
    .describe(
      'cursor paging with a text search only: the search read its bound of emails before filling the page, back (or up) to ' +
        "the one created then; the page's cursor reads on from there. Null when it did not stop short",
    ),
});

const DomainIdParam = z.coerce.number().int().positive().max(2_147_483_647);

/** Herald's bound on the search text: longer than any address or subject worth looking for. */
export const LIST_SEARCH_MAX = 320;

export const ListEmailsQuery = z.object({
  page: pageParam(1_000_000),
  limit: limitParam(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
  startDate: z.iso.datetime({ offset: true }).optional(),
  endDate: z.iso.datetime({ offset: true }).optional(),
  domainId: z.union([DomainIdParam, DomainIdParam.array().max(100)]).optional(),
  campaignId: z.string().min(1).max(64).optional().describe("only this campaign's emails"),
  status: z
    .union([EmailStatus, EmailStatus.array().min(1).max(EMAIL_STATUSES.length)])
    .optional()
    .describe('Herald extension: only emails whose latestStatus is one of these (repeat for several)'),
  search: z
    .string()
    .trim()
    .min(1)
    .max(LIST_SEARCH_MAX)
    .optional()
    .describe(
      'Herald extension, case-insensitive: a whole address (local@domain) finds the emails with that recipient in to, cc ' +
        'or bcc (an index lookup); any other text, the emails whose subject or a recipient contains it (read newest first, ' +
        'so a text no recent email has reads the whole log)',
    ),
  paging: z
    .enum(['offset', 'cursor'])
    .default('offset')
    .describe(
      'Herald extension: cursor reads the newest page without OFFSET or a total, and answers nextCursor and prevCursor',
    ),
  cursor: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe(
      'Herald extension: a nextCursor or prevCursor of an earlier answer (implies paging=cursor; page must be 1)',
    ),
  fields: z
    .enum(['full', 'summary'])
    .default('full')
    .describe('Herald extension: summary leaves html and text null (a lean list, as the dashboard reads it)'),
});
export type ListEmailsQuery = z.infer<typeof ListEmailsQuery>;

export const RescheduleBody = z.object({ scheduledAt: z.iso.datetime({ offset: true }) });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
