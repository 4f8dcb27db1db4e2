// Request and response schemas of /v1/analytics (contract: Analytics (FULL)).
import { z } from 'zod';

/** Contract: days is the string `7` or `30`, default 30. */
const TIME_SERIES_DAYS = ['7', '30'] as const;

const domainId = z.coerce
  .number()
  .int()
  .positive()
  .max(2_147_483_647)
  .optional()
  .describe("Only this domain's emails; a key limited to one domain sees its domain whether or not this is given");

export const TimeSeriesQuery = z.object({
  days: z.enum(TIME_SERIES_DAYS).default('30').describe('How many UTC days, ending today'),
  domainId,
});

export const ReputationQuery = z.object({ domainId });

const counts = {
  sent: z.number().int(),
  delivered: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
};

export const TimeSeries = z.object({
  result: z.object({ date: z.string().describe('UTC day, YYYY-MM-DD'), ...counts }).array(),
  totalCounts: z.object(counts),
});

export const ReputationMetrics = z.object({
  delivered: z
    .number()
    .int()
    .describe('emails with a reported delivery (under the relay and log transports, only from delivery reports)'),
  hardBounced: z.number().int(),
  complained: z.number().int(),
  bounceRate: z
    .number()
    .describe(
      'hardBounced / delivered once any delivery was reported, else hardBounced / emails sent; a fraction (0.02 is 2%), 0 when that is 0',
    ),
  complaintRate: z
    .number()
    .describe(
      'complained / delivered once any delivery was reported, else complained / emails sent; a fraction, 0 when that is 0',
    ),
});

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
