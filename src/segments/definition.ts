// The segment definition (contract: Segment, condition table): version 1, match all/any and a list of
// conditions, one zod discriminated union on `type`. Groups nest one level only: a group's members
// are drawn from the leaf conditions, so a group inside a group is refused by the schema itself.
import { z } from 'zod';

/** Contract Limits: at most 20 conditions, counting those inside groups. */
const CONDITIONS_MAX = 20;
/** Our own bounds on a comparison value and an `in_last_days` count (the contract names none). */
const VALUE_MAX = 500;
const DAYS_MAX = 36_500;

export const Match = z.enum(['all', 'any']);

/**
 * A plain decimal number (optional sign, fraction, exponent, surrounding blanks); the same test
 * guards the SQL cast. Unbounded repetitions with a separate length limit: PostgreSQL's regex
 * engine expands a bounded repetition like {1,60} into that many states, which made the test cost
 * half of a segment count on a large book. NUMBER_LENGTH_MAX keeps every match castable (numeric
 * takes far more digits than that, and the exponent has at most three).
 */
export const NUMBER_PATTERN = '^[ \\t\\n\\r]*[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]{1,3})?[ \\t\\n\\r]*$';
export const NUMBER_LENGTH_MAX = 200;
const numberRegex = new RegExp(NUMBER_PATTERN);
const isNumberText = (text: string) => text.length <= NUMBER_LENGTH_MAX && numberRegex.test(text);

const Text = z.string().min(1).max(VALUE_MAX);
const Days = z.number().int().min(1).max(DAYS_MAX);

type Ctx = z.RefinementCtx;
const missing = (ctx: Ctx, field: string, op: string) =>
  ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required with op ${op}` });
const unused = (ctx: Ctx, field: string, op: string) =>
  ctx.addIssue({ code: 'custom', path: [field], message: `${field} is not used with op ${op}; leave it out` });

const textOps = ['equals', 'not_equals', 'contains'] as const;
const presenceOps = ['is_set', 'is_empty'] as const;
const numericOps = ['gt', 'gte', 'lt', 'lte'] as const;

function valueForTextOps(condition: { op: string; value?: unknown }, ctx: Ctx): void {
  const needsValue = !(presenceOps as readonly string[]).includes(condition.op);
  if (needsValue && condition.value === undefined) missing(ctx, 'value', condition.op);
  if (!needsValue && condition.value !== undefined) unused(ctx, 'value', condition.op);
}

const EmailCondition = z.object({
  type: z.literal('email'),
  op: z.enum(['equals', 'not_equals', 'contains', 'ends_with']),
  value: Text,
});

const nameCondition = <T extends 'first_name' | 'last_name'>(type: T) =>
  z
    .object({
      type: z.literal(type),
      op: z.enum([...textOps, ...presenceOps]),
      value: Text.optional().describe('Not used with is_set and is_empty'),
    })
    .superRefine(valueForTextOps);

const FirstNameCondition = nameCondition('first_name');
const LastNameCondition = nameCondition('last_name');

const SubscribedCondition = z.object({
  type: z.literal('subscribed'),
  op: z.literal('is'),
  value: z.boolean().describe('true: subscribed and, in a double opt-in book, confirmed'),
});

const AddedCondition = z
  .object({
    type: z.literal('added'),
    op: z.enum(['before', 'after', 'in_last_days']),
    value: z
      .union([z.iso.date(), z.iso.datetime({ offset: true }), Days])
      .describe('before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days'),
  })
  .superRefine((condition, ctx) => {
    const isDays = typeof condition.value === 'number';
    if (condition.op === 'in_last_days' && !isDays) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'value must be a number of days with op in_last_days' });
    }
    if (condition.op !== 'in_last_days' && isDays) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `value must be an ISO date with op ${condition.op}` });
    }
  });

const PropertyCondition = z
  .object({
    type: z.literal('property'),
    key: z.string().min(1).max(200).describe("A variable of the contact book (the book's `variables`)"),
    op: z.enum([...textOps, ...presenceOps, ...numericOps]),
    value: z
      .union([Text, z.number()])
      .optional()
      .describe('Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty'),
  })
  .superRefine((condition, ctx) => {
    valueForTextOps(condition, ctx);
    const numeric = (numericOps as readonly string[]).includes(condition.op);
    if (numeric && condition.value !== undefined && !isNumberText(String(condition.value))) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `value must be a number with op ${condition.op}` });
    }
    if (typeof condition.value === 'number' && !Number.isFinite(condition.value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'value must be a finite number' });
    }
  });

const EmailActivityCondition = z
  .object({
    type: z.literal('email_activity'),
    event: z.enum(['received', 'opened', 'clicked']),
    op: z.enum(['in_last_days', 'ever', 'never']),
    days: Days.optional().describe('Required with in_last_days'),
    campaignId: z.string().min(1).max(100).optional().describe('Only emails of this campaign'),
  })
  .superRefine((condition, ctx) => {
    if (condition.op === 'in_last_days' && condition.days === undefined) missing(ctx, 'days', condition.op);
    if (condition.op !== 'in_last_days' && condition.days !== undefined) unused(ctx, 'days', condition.op);
  });

const EmailProblemCondition = z.object({
  type: z.literal('email_problem'),
  event: z.enum(['bounced', 'complained']),
  op: z.enum(['ever', 'never']),
});

const JourneyCondition = z.object({
  type: z.literal('journey'),
  op: z.enum(['is_in', 'completed', 'exited', 'not_in']),
  journeyId: z.string().min(1).max(100),
});

const leafConditions = [
  EmailCondition,
  FirstNameCondition,
  LastNameCondition,
  SubscribedCondition,
  AddedCondition,
  PropertyCondition,
  EmailActivityCondition,
  EmailProblemCondition,
  JourneyCondition,
] as const;

const LEAF_TYPES = 'email, first_name, last_name, subscribed, added, property, email_activity, email_problem, journey';

export const LeafCondition = z.discriminatedUnion('type', leafConditions, {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? `type must be one of ${LEAF_TYPES} inside a group (groups nest one level only)`
      : undefined,
});

const GroupCondition = z.object({
  type: z.literal('group'),
  match: Match,
  conditions: z.array(LeafCondition).min(1).describe('Conditions of any type but group (groups nest one level only)'),
});

export const Condition = z.discriminatedUnion('type', [...leafConditions, GroupCondition], {
  error: (issue) => (issue.code === 'invalid_union' ? `type must be one of ${LEAF_TYPES}, group` : undefined),
});

/** Leaf conditions, counting those inside groups (a group itself is a container, not a condition). */
function countConditions(conditions: readonly Condition[]): number {
  return conditions.reduce(
    (total, condition) => total + (condition.type === 'group' ? condition.conditions.length : 1),
    0,
  );
}

export const Definition = z
  .object({
    version: z.literal(1),
    match: Match,
    conditions: z.array(Condition).min(1),
  })
  .superRefine((definition, ctx) => {
    const count = countConditions(definition.conditions);
    if (count > CONDITIONS_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['conditions'],
        message: `at most ${CONDITIONS_MAX} conditions, counting those inside groups (got ${count})`,
      });
    }
  });

export type LeafCondition = z.infer<typeof LeafCondition>;
type GroupCondition = z.infer<typeof GroupCondition>;
export type Condition = z.infer<typeof Condition>;
export type Definition = z.infer<typeof Definition>;

/** Every leaf condition, those inside groups included. */
export function leavesOf(definition: Definition): LeafCondition[] {
  return definition.conditions.flatMap((condition) =>
    condition.type === 'group' ? condition.conditions : [condition],
  );
}
