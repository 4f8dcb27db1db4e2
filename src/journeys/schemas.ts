// Request and response schemas of /v1/journeys (contract: Journey and journey run, Endpoints ›
// Journeys; operator.md: "Journeys: creating and running them"). Each limit answers 400 naming the field.
import { z } from 'zod';
import {
  EXIT_REASONS,
  JOURNEY_STATUSES,
  JOURNEY_TRIGGERS,
  RUN_STATUSES,
  type ExitReason,
  type RunStatus,
} from '../db/schema-journeys.ts';
import { cursorParam, limitParam } from '../platform/pagination.ts';

export const NAME_MAX = 200;
export const STEPS_MIN = 1;
export const STEPS_MAX = 50;
export const STEP_ID_MAX = 64;
export const WAIT_SECONDS_MAX = 31_536_000;
export const RUNS_LIMIT_MAX = 100;
export const RUNS_LIMIT_DEFAULT = 50;

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const StepId = z.string().min(1).max(STEP_ID_MAX).describe(`unique in the journey, 1 to ${STEP_ID_MAX} characters`);

export const EmailStep = z
  .object({
    id: StepId,
    type: z.literal('EMAIL'),
    templateId: z.string().min(1).max(64).describe("a template of the team; its html is the email's body"),
    from: z
      .string()
      .min(1)
      .max(998)
      .describe('`address` or `Name <address>`, on a verified sending domain of the team'),
    subject: z
      .string()
      .min(1)
      .max(998)
      .regex(/^[^\r\n]*$/, 'must be one line')
      .optional()
      .describe("overrides the template's subject; may use the contact's variables"),
  })
  .strict();

export const WaitStep = z
  .object({
    id: StepId,
    type: z.literal('WAIT'),
    seconds: z.number().int().min(1).max(WAIT_SECONDS_MAX).describe(`1 to ${WAIT_SECONDS_MAX} (365 days)`),
  })
  .strict();

export const Step = z.discriminatedUnion('type', [EmailStep, WaitStep]);
export type Step = z.infer<typeof Step>;
export type EmailStep = z.infer<typeof EmailStep>;

export const Steps = z
  .array(Step)
  .min(STEPS_MIN)
  .max(STEPS_MAX)
  .superRefine((steps, ctx) => {
    const seen = new Set<string>();
    steps.forEach((step, index) => {
      if (seen.has(step.id))
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `"${step.id}" is used by an earlier step` });
      seen.add(step.id);
    });
  })
  .describe(`${STEPS_MIN} to ${STEPS_MAX} steps run in order, each with an id unique in the journey`);

const journeyFields = {
  name: z.string().trim().min(1).max(NAME_MAX).describe(`at most ${NAME_MAX} characters`),
  triggerType: z.enum(JOURNEY_TRIGGERS).describe('CONTACT_ADDED: every contact added to the book while ACTIVE'),
  contactBookId: z.string().min(1).max(100),
  segmentId: z.string().min(1).max(100).nullable().describe('only contacts in this segment of the book are enrolled'),
  exitWhenLeavesSegment: z.boolean().describe('a contact who stops matching the segment leaves before its next email'),
  steps: Steps,
};

export const CreateJourneyBody = z
  .object({
    ...journeyFields,
    segmentId: journeyFields.segmentId.optional(),
    exitWhenLeavesSegment: journeyFields.exitWhenLeavesSegment.default(false),
  })
  .strict();
export type CreateJourneyInput = z.infer<typeof CreateJourneyBody>;

export const UpdateJourneyBody = z
  .object({
    name: journeyFields.name.optional(),
    triggerType: journeyFields.triggerType.optional(),
    contactBookId: journeyFields.contactBookId.optional(),
    segmentId: journeyFields.segmentId.optional(),
    exitWhenLeavesSegment: journeyFields.exitWhenLeavesSegment.optional(),
    steps: Steps.optional(),
  })
  .strict();
export type UpdateJourneyInput = z.infer<typeof UpdateJourneyBody>;

export const StatusBody = z.object({ status: z.enum(['ACTIVE', 'PAUSED', 'ARCHIVED']) }).strict();

export const EnrollBody = z
  .object({
    contactId: z.string().min(1).max(100).optional(),
    email: z.string().trim().toLowerCase().max(320).pipe(z.email()).optional(),
  })
  .strict()
  .describe('give contactId or email, not both');

export const JourneyParams = z.object({ id: z.string().min(1).max(100) });

export const RunsQuery = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  cursor: cursorParam,
  limit: limitParam(RUNS_LIMIT_MAX, RUNS_LIMIT_DEFAULT),
});

export const Journey = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(JOURNEY_STATUSES),
    triggerType: z.enum(JOURNEY_TRIGGERS),
    contactBookId: z.string().nullable(),
    segmentId: z.string().nullable(),
    exitWhenLeavesSegment: z.boolean(),
    steps: z.array(Step),
    stats: z.object({
      enrolled: z.number().int(),
      active: z.number().int(),
      completed: z.number().int(),
      exited: z.number().int(),
      failed: z.number().int(),
      sentByStep: z.record(z.string(), z.number().int()).describe('emails sent per EMAIL step id'),
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Journey' });

export const HistoryEntry = z.object({
  at: z.string(),
  type: z.string().describe('EMAIL, WAIT, COMPLETED, EXITED, FAILED'),
  stepId: z.string().optional(),
  emailId: z.string().optional(),
  until: z.string().optional(),
  note: z.string().optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const JourneyRun = z
  .object({
    id: z.string(),
    journeyId: z.string(),
    contactId: z.string(),
    status: z.enum(RUN_STATUSES) as z.ZodType<RunStatus>,
    currentStepIndex: z.number().int(),
    nextRunAt: z.string(),
    exitReason: (z.enum(EXIT_REASONS) as z.ZodType<ExitReason>).nullable(),
    history: z.array(HistoryEntry).describe("what the run did, oldest first (Herald's addition)"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'JourneyRun' });

export const RunList = z.object({ data: z.array(JourneyRun), nextCursor: z.string().nullable() });
export const JourneyDeleted = z.object({ id: z.string(), deleted: z.literal(true) });
