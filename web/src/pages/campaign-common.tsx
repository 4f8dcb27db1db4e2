// What the campaign pages share: the Campaign type, its status badge (the brief's campaign tones,
// which differ from the email words the shared badge knows), the API's field errors split by field,
// and when a campaign's numbers still move (so the pages poll only then).
import { Ban, CircleAlert, CircleCheck, CircleDashed, Clock, Send, type LucideIcon } from 'lucide-react';
import { ApiFailure } from '../api/client.ts';
import type { components } from '../api/schema';
import { cn } from '../ui/cn.ts';

export type Campaign = components['schemas']['Campaign'];
export type CampaignStatus = Campaign['status'];
export const CAMPAIGN_STATUSES: CampaignStatus[] = ['DRAFT', 'SCHEDULED', 'RUNNING', 'PAUSED', 'SENT'];

/** Design brief, status tones: Draft and Scheduled neutral, Running info, Paused warning, Sent success. */
const neutral = 'text-[var(--tone-neutral)] bg-[var(--tone-neutral-bg)]';
const statusLook: Record<CampaignStatus, { word: string; tone: string; icon: LucideIcon }> = {
  DRAFT: { word: 'Draft', tone: neutral, icon: CircleDashed },
  SCHEDULED: { word: 'Scheduled', tone: neutral, icon: Clock },
  RUNNING: { word: 'Running', tone: 'text-[var(--tone-info)] bg-[var(--tone-info-bg)]', icon: Send },
  PAUSED: { word: 'Paused', tone: 'text-[var(--tone-warning)] bg-[var(--tone-warning-bg)]', icon: Ban },
  SENT: { word: 'Sent', tone: 'text-[var(--tone-success)] bg-[var(--tone-success-bg)]', icon: CircleCheck },
};

export const campaignStatusWord = (status: CampaignStatus) => statusLook[status]?.word ?? status;

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const look = statusLook[status] ?? { word: status, tone: neutral, icon: CircleAlert };
  const Icon = look.icon;
  return (
    <span
      title={status}
      className={cn(
        'inline-flex h-5 items-center gap-1 rounded px-1.5 text-[12px] leading-4 font-medium whitespace-nowrap',
        look.tone,
      )}
    >
      <Icon aria-hidden="true" size={12} strokeWidth={2.25} />
      {look.word}
    </span>
  );
}

export interface FieldErrors {
  /** Each named field's message, by the field's top-level name (`replyTo[0]` and `replyTo.0` → replyTo). */
  fields: Record<string, string>;
  /** What no field claims, for the form alert. */
  rest: string | null;
}

/**
 * The API's 400s name their field first (`subject: Too small…`, `replyTo[0]: must be…`, several
 * joined by "; "): each goes beside its field when the form has it, the rest to the form alert.
 */
export function campaignFieldErrors(error: unknown, known: readonly string[]): FieldErrors {
  if (!error) return { fields: {}, rest: null };
  const message = error instanceof Error ? error.message : 'The request failed';
  if (!(error instanceof ApiFailure) || error.status !== 400) return { fields: {}, rest: message };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const match = /^([A-Za-z]\w*)(?:\[\d+\]|\.[\w.]+)*:\s*(.+)$/s.exec(part);
    if (match && known.includes(match[1]!) && !fields[match[1]!]) fields[match[1]!] = match[2]!;
    else rest.push(part);
  }
  return { fields, rest: rest.length > 0 ? rest.join('; ') : null };
}

const HOUR = 3600_000;

/**
 * Poll while the numbers move: running; scheduled and due within a minute; sent within the hour
 * while some of its emails are still queued. Anything else is still, so polling stops.
 */
export function liveInterval(c: Campaign | undefined, now = Date.now()): number | false {
  if (!c) return false;
  if (c.status === 'RUNNING') return 5000;
  if (c.status === 'SCHEDULED' && c.scheduledAt) return Date.parse(c.scheduledAt) - now < 60_000 ? 5000 : 60_000;
  if (c.status === 'SENT' && c.finishedAt && now - Date.parse(c.finishedAt) < HOUR && c.sent < c.total) return 5000;
  return false;
}
