// One line on an event, for people reading the tail (`herald admin webhooks tail`): the id of what it
// is about and a short summary, from its payload, one reader per payload schema of the catalogue.
import type { z } from 'zod';
import {
  CampaignEventData,
  EmailEventData,
  EVENT_CATALOGUE,
  InboundEventData,
  isEventType,
  JourneyRunEventData,
  SmsEventData,
  TestEventData,
} from './event-catalogue.ts';

export interface EventSummary {
  /** The id of what the event is about (the email, SMS message, run, campaign, inbound message, webhook). */
  about: string | null;
  summary: string;
}

const SUMMARY_MAX = 160;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= SUMMARY_MAX ? line : `${line.slice(0, SUMMARY_MAX - 1)}…`;
}

function addresses(to: string | string[]): string {
  const list = Array.isArray(to) ? to : [to];
  return list.length <= 1 ? (list[0] ?? '') : `${list[0]} +${list.length - 1}`;
}

/** What an email event's details say first: the reason, the clicked link, the server's answer. */
function detail(details: unknown): string | null {
  if (details === null || typeof details !== 'object') return null;
  const fields = details as Record<string, unknown>;
  for (const key of ['reason', 'url', 'link', 'response']) {
    if (typeof fields[key] === 'string' && fields[key] !== '') return fields[key];
  }
  if (Array.isArray(fields.recipients)) return fields.recipients.join(', ');
  return null;
}

type Reader<S extends z.ZodType> = { schema: S; read(data: z.infer<S>): EventSummary };
const reader = <S extends z.ZodType>(schema: S, read: (data: z.infer<S>) => EventSummary): Reader<S> => ({
  schema,
  read,
});

const READERS: Record<string, Reader<z.ZodType>> = {
  EmailEventData: reader(EmailEventData, (d) => {
    const why = detail(d.details);
    return { about: d.emailId, summary: `"${d.subject}" to ${addresses(d.to)}${why === null ? '' : `: ${why}`}` };
  }),
  SmsEventData: reader(SmsEventData, (d) => ({
    about: d.id,
    summary: `to ${d.to}, ${d.segments} segment${d.segments === 1 ? '' : 's'}, ${d.charge.amount} ${d.charge.currency}${d.reason === null ? '' : `: ${d.reason.message}`}`,
  })),
  JourneyRunEventData: reader(JourneyRunEventData, (d) => ({
    about: d.runId,
    summary: `journey ${d.journeyId}, contact ${d.contactId}, step ${d.currentStepIndex}${d.exitReason === null ? '' : `: ${d.exitReason}`}`,
  })),
  CampaignEventData: reader(CampaignEventData, (d) => ({
    about: d.campaignId,
    summary: `"${d.name}", ${d.total} recipients${d.pausedReason === null ? '' : `, paused: ${d.pausedReason}`}`,
  })),
  InboundEventData: reader(InboundEventData, (d) => ({
    about: d.messageId,
    summary: `"${d.subject}" from ${d.from} to ${d.inbox.address} (${d.spamVerdict})`,
  })),
  TestEventData: reader(TestEventData, (d) => ({ about: d.webhookId, summary: d.message })),
};

/** The event's line; an event this version does not know (or cannot read) has no id and no summary. */
export function summarizeEvent(type: string, data: unknown): EventSummary {
  if (!isEventType(type)) return { about: null, summary: '' };
  const readerOf = READERS[EVENT_CATALOGUE[type].schemaName];
  const parsed = readerOf?.schema.safeParse(data);
  if (readerOf === undefined || !parsed?.success) return { about: null, summary: '' };
  const { about, summary } = readerOf.read(parsed.data);
  return { about, summary: clip(summary) };
}
