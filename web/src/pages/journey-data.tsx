// What the Journeys pages share: the API's types, the small lookups they name (books, segments,
// templates, verified domains; fetched once and cached 5 min), words for triggers and waits, and the
// API's 400 answers split by field, steps included ("steps.1.seconds: …", "steps[0].from: …").
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiFailure, must } from '../api/client.ts';
import type { components } from '../api/schema';
import { useDomains } from '../lib/use-domains.ts';

export type Journey = components['schemas']['Journey'];
export type JourneyRun = components['schemas']['JourneyRun'];
export type JourneyStep = Journey['steps'][number];
export type JourneyStatus = Journey['status'];
export type TriggerType = Journey['triggerType'];
export type RunStatus = JourneyRun['status'];

const FIVE_MINUTES = 5 * 60_000;
/** How often an active journey and its runs are read again while the page is visible. */
export const LIVE_MS = 5000;

export function useContactBooks() {
  return useQuery({
    queryKey: ['contact-books'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/contactBooks', { signal })),
    staleTime: FIVE_MINUTES,
  });
}

export function useSegments(bookId: string | null) {
  return useQuery({
    queryKey: ['segments', bookId],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/segments', {
          params: { path: { contactBookId: bookId! } },
          signal,
        }),
      ),
    enabled: Boolean(bookId),
    staleTime: FIVE_MINUTES,
  });
}

/** The first 100 templates, most recently changed first: enough to pick from; the id still shows for others. */
export function useTemplates() {
  return useQuery({
    queryKey: ['templates', 'picker'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/templates', { params: { query: { limit: 100 } }, signal })),
    staleTime: FIVE_MINUTES,
  });
}

/** Names of the team's verified domains: an EMAIL step's From must be on one of them. */
export function useVerifiedDomainNames(): string[] {
  const domains = useDomains();
  return (domains.data ?? []).filter((d) => d.status === 'SUCCESS').map((d) => d.name);
}

export const triggerWords: Record<TriggerType, string> = {
  API: 'API enrolment',
  CONTACT_ADDED: 'Contact added',
};

export const exitReasonWords: Record<NonNullable<JourneyRun['exitReason']>, string> = {
  UNSUBSCRIBED: 'Unsubscribed',
  JOURNEY_ARCHIVED: 'Journey archived',
  CONTACT_DELETED: 'Contact deleted',
  SEND_FAILED: 'Send failed',
  PROCESSING_ERROR: 'Processing error',
};

export const WAIT_UNITS = [
  { unit: 'seconds', label: 'seconds', seconds: 1 },
  { unit: 'minutes', label: 'minutes', seconds: 60 },
  { unit: 'hours', label: 'hours', seconds: 3600 },
  { unit: 'days', label: 'days', seconds: 86_400 },
] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number]['unit'];

/** "1 day", "2 h 30 min", "45 s": a wait in the largest units that say it exactly (two at most). */
export function formatWait(seconds: number): string {
  const parts: string[] = [];
  let left = seconds;
  for (const [size, one, many] of [
    [86_400, 'day', 'days'],
    [3600, 'h', 'h'],
    [60, 'min', 'min'],
    [1, 's', 's'],
  ] as const) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(`${n} ${n === 1 ? one : many}`);
    left -= n * size;
  }
  return parts.slice(0, 2).join(' ') + (parts.length > 2 ? ' …' : '');
}

/** The step's name in lists: "Email · welcome", "Wait 1 day". */
export function stepTitle(step: JourneyStep): string {
  return step.type === 'EMAIL' ? 'Send email' : `Wait ${formatWait(step.seconds)}`;
}

export interface JourneyErrors {
  /** Errors of the journey's own fields, by name (name, triggerType, contactBookId, …). */
  fields: Record<string, string>;
  /** Errors of each step, by its index, then by field (templateId, from, subject, seconds, id). */
  steps: Record<number, Record<string, string>>;
  /** What no field claims, for the form alert. */
  form: string | null;
}

const STEP_FIELD = /^steps(?:\.(\d+)|\[(\d+)\])(?:\.(\w+))?:\s*(.+)$/s;
const FIELD = /^([A-Za-z]\w*):\s*(.+)$/s;

/** The API's message, or its several "field: message" parts joined by "; ", split by field. */
export function journeyErrors(error: unknown, fields: string[]): JourneyErrors {
  const out: JourneyErrors = { fields: {}, steps: {}, form: null };
  if (!error) return out;
  const message = error instanceof Error ? error.message : 'The request failed';
  if (!(error instanceof ApiFailure) || error.status !== 400) return { ...out, form: message };
  const rest: string[] = [];
  for (const part of message.split(/; (?=[A-Za-z][\w.[\]]*: )/)) {
    const step = STEP_FIELD.exec(part);
    if (step) {
      const index = Number(step[1] ?? step[2]);
      const field = step[3] ?? 'type';
      out.steps[index] = { ...out.steps[index], [field]: out.steps[index]?.[field] ?? step[4]! };
      continue;
    }
    const field = FIELD.exec(part);
    if (field && fields.includes(field[1]!) && !out.fields[field[1]!]) out.fields[field[1]!] = field[2]!;
    else rest.push(part);
  }
  out.form = rest.length ? rest.join('; ') : null;
  return out;
}

/** Calls `reset` each time `open` turns true: a dialog's form starts fresh (state set during render, not in an effect). */
export function useOnOpen(open: boolean, reset: () => void): void {
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) reset();
  }
}
