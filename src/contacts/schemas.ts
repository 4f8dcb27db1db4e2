// Request and response schemas of /v1/contactBooks and its contacts (contract: Contact book,
// Contact, Endpoints › Contact books and Contacts, Limits). Sizes the contract leaves open are
// Herald's (README.md); each answers 400 naming the field and the limit.
import { z } from 'zod';
import { limitParam, pageParam } from '../platform/pagination.ts';

/** Contract Limits. */
export const BULK_MAX = 1000;
export const LIST_PAGE_MAX = 10_000;
export const LIST_LIMIT_MAX = 200;
export const LIST_LIMIT_DEFAULT = 50;

/** Herald's limits where the contract is silent. */
const PROPERTIES_MAX = 100;
const PROPERTY_KEY_MAX = 100;
const PROPERTY_VALUE_MAX = 2000;
export const NAME_MAX = 200;
const EMAIL_MAX = 320;
const EMOJI_MAX = 32;
export const VARIABLES_MAX = 100;
const VARIABLE_MAX = 100;
const OPT_IN_SUBJECT_MAX = 998;
const OPT_IN_CONTENT_MAX = 2_000_000;
const FILTER_VALUES_MAX = 1000;
export const DEFAULT_EMOJI = '📙';

/** map string -> string; at most 100 entries, names 1-100 characters, values at most 2,000. */
const Properties = z
  .record(z.string(), z.string())
  .superRefine((map, ctx) => {
    const keys = Object.keys(map);
    if (keys.length > PROPERTIES_MAX)
      ctx.addIssue({ code: 'custom', message: `at most ${PROPERTIES_MAX} properties (${keys.length} given)` });
    for (const key of keys) {
      if (key.length === 0 || key.length > PROPERTY_KEY_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `a property name is 1 to ${PROPERTY_KEY_MAX} characters`,
        });
      } else if (map[key]!.length > PROPERTY_VALUE_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `a property value is at most ${PROPERTY_VALUE_MAX} characters`,
        });
      }
    }
  })
  .describe(
    `map of string to string: at most ${PROPERTIES_MAX} entries, names 1 to ${PROPERTY_KEY_MAX} characters, values at most ${PROPERTY_VALUE_MAX}`,
  );

const EmailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX)
  .regex(z.regexes.email, 'must be an email address')
  .describe('stored trimmed and lower-cased; at most 320 characters');

const PersonName = z.string().max(NAME_MAX).nullable();

const contactFields = {
  firstName: PersonName.optional(),
  lastName: PersonName.optional(),
  properties: Properties.optional(),
  subscribed: z
    .boolean()
    .optional()
    .describe('default true; ignored when the book uses double opt-in (the contact subscribes by confirming)'),
};

/** The POST contact shape; also each entry of a bulk add and each row of a CSV import. */
export const ContactInput = z.object({ email: EmailAddress, ...contactFields });
export type ContactInput = z.infer<typeof ContactInput>;

/** PATCH: send only what changes; the email is not changed here (PUT changes it). */
export const PatchContactBody = z.strictObject(contactFields);
export const PutContactBody = z.object({ email: EmailAddress.optional(), ...contactFields });
export type ContactChanges = z.infer<typeof PatchContactBody>;

export const BulkAddBody = ContactInput.array().min(1).max(BULK_MAX).describe(`1 to ${BULK_MAX} contacts`);
export const BulkDeleteBody = z.object({ contactIds: z.string().min(1).max(100).array().min(1).max(BULK_MAX) });

/** Several values: comma-separated (`a,b`), repeated (`x=a&x=b`), or both. */
const MultiValue = (normalise: (value: string) => string) =>
  z
    .union([z.string(), z.string().array()])
    .transform((given) =>
      (Array.isArray(given) ? given : [given])
        .flatMap((part) => part.split(','))
        .map((value) => normalise(value.trim()))
        .filter((value) => value !== ''),
    )
    .refine((values) => values.length <= FILTER_VALUES_MAX, `at most ${FILTER_VALUES_MAX} values`)
    .optional();

export const ListContactsQuery = z.object({
  emails: MultiValue((value) => value.toLowerCase()).describe(
    'only these addresses (matched lower-cased); comma-separated and/or repeated',
  ),
  ids: MultiValue((value) => value).describe('only these contact ids; comma-separated and/or repeated'),
  page: pageParam(LIST_PAGE_MAX),
  limit: limitParam(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
});

const bookFields = {
  name: z.string().trim().min(1).max(NAME_MAX),
  emoji: z.string().trim().min(1).max(EMOJI_MAX),
  properties: Properties,
  doubleOptInEnabled: z.boolean(),
  doubleOptInFrom: z
    .string()
    .trim()
    .min(1)
    .max(EMAIL_MAX + NAME_MAX)
    .regex(/^[^\r\n]*$/, 'must be one line')
    .nullable()
    .describe('`address` or `Name <address>`; the address must be on a verified domain of the team'),
  doubleOptInSubject: z
    .string()
    .max(OPT_IN_SUBJECT_MAX)
    .regex(/^[^\r\n]*$/, 'must be one line')
    .nullable(),
  doubleOptInContent: z
    .string()
    .min(1)
    .max(OPT_IN_CONTENT_MAX)
    .nullable()
    .describe('the confirmation email as an editor document (JSON text, see docs/templates.md)'),
  variables: z
    .string()
    .trim()
    .min(1)
    .max(VARIABLE_MAX)
    .array()
    .max(VARIABLES_MAX)
    .describe(
      `allowed personalisation variables for contacts in the book: at most ${VARIABLES_MAX}, each 1 to ${VARIABLE_MAX} characters`,
    ),
};

export const CreateBookBody = z.object({
  name: bookFields.name,
  emoji: bookFields.emoji.optional().describe(`default ${DEFAULT_EMOJI}`),
  properties: bookFields.properties.optional(),
  doubleOptInEnabled: bookFields.doubleOptInEnabled.optional(),
  doubleOptInFrom: bookFields.doubleOptInFrom.optional(),
  doubleOptInSubject: bookFields.doubleOptInSubject.optional(),
  doubleOptInContent: bookFields.doubleOptInContent.optional(),
  variables: bookFields.variables.optional(),
});
export const UpdateBookBody = CreateBookBody.extend({ name: bookFields.name.optional() });
export type BookInput = z.infer<typeof UpdateBookBody>;

export const BookParams = z.object({ contactBookId: z.string().min(1).max(100) });
export const ContactParams = BookParams.extend({ contactId: z.string().min(1).max(100) });

export const ContactBook = z.object({
  id: z.string(),
  name: z.string(),
  teamId: z.number().int(),
  properties: z.record(z.string(), z.string()),
  variables: z.string().array(),
  emoji: z.string(),
  doubleOptInEnabled: z.boolean(),
  doubleOptInFrom: z.string().nullable(),
  doubleOptInSubject: z.string().nullable(),
  doubleOptInContent: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  _count: z.object({ contacts: z.number().int() }),
});

export const Contact = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  subscribed: z.boolean(),
  properties: z.record(z.string(), z.string()),
  contactBookId: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const BookDeleted = z.object({ id: z.string(), success: z.boolean(), message: z.string() });
export const ContactIdBody = z.object({ contactId: z.string() });
export const ContactDeleted = z.object({ success: z.boolean() });
export const BulkAdded = z.object({ message: z.string(), count: z.number().int() });
export const BulkDeleted = z.object({ success: z.boolean(), count: z.number().int() });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export const FlatError = z.object({ error: z.string() });
