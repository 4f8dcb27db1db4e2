// Status = icon + word + colour, never colour alone (WCAG 1.4.1). The word is the API state in
// sentence case; the raw enum sits in the title.
import {
  Ban,
  CircleAlert,
  CircleCheck,
  CircleDashed,
  CircleX,
  Clock,
  MailOpen,
  MousePointerClick,
  Send,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export type Tone = 'neutral' | 'info' | 'success' | 'engagement' | 'warning' | 'danger';

const toneClass: Record<Tone, string> = {
  neutral: 'text-[var(--tone-neutral)] bg-[var(--tone-neutral-bg)]',
  info: 'text-[var(--tone-info)] bg-[var(--tone-info-bg)]',
  success: 'text-[var(--tone-success)] bg-[var(--tone-success-bg)]',
  engagement: 'text-[var(--tone-engagement)] bg-[var(--tone-engagement-bg)]',
  warning: 'text-[var(--tone-warning)] bg-[var(--tone-warning-bg)]',
  danger: 'text-[var(--tone-danger)] bg-[var(--tone-danger-bg)]',
};

const toneIcon: Record<Tone, LucideIcon> = {
  neutral: CircleDashed,
  info: Send,
  success: CircleCheck,
  engagement: MailOpen,
  warning: CircleAlert,
  danger: CircleX,
};

/** Each API state's word, tone and (where the tone's icon does not say it) its own icon. */
const states: Record<string, { word: string; tone: Tone; icon?: LucideIcon }> = {
  // emails
  SCHEDULED: { word: 'Scheduled', tone: 'neutral', icon: Clock },
  QUEUED: { word: 'Queued', tone: 'neutral', icon: Clock },
  CANCELLED: { word: 'Cancelled', tone: 'neutral', icon: Ban },
  SENT: { word: 'Sent', tone: 'info' },
  DELIVERED: { word: 'Delivered', tone: 'success' },
  OPENED: { word: 'Opened', tone: 'engagement' },
  CLICKED: { word: 'Clicked', tone: 'engagement', icon: MousePointerClick },
  DELIVERY_DELAYED: { word: 'Delivery delayed', tone: 'warning', icon: Clock },
  SUPPRESSED: { word: 'Suppressed', tone: 'warning', icon: Ban },
  BOUNCED: { word: 'Bounced', tone: 'danger' },
  REJECTED: { word: 'Rejected', tone: 'danger' },
  FAILED: { word: 'Failed', tone: 'danger' },
  RENDERING_FAILURE: { word: 'Rendering failure', tone: 'danger' },
  COMPLAINED: { word: 'Complained', tone: 'danger' },
  // domains (and their records)
  NOT_STARTED: { word: 'Not started', tone: 'neutral' },
  PENDING: { word: 'Pending', tone: 'info', icon: Clock },
  SUCCESS: { word: 'Verified', tone: 'success' },
  TEMPORARY_FAILURE: { word: 'Temporary failure', tone: 'warning' },
  // webhooks and their calls
  ACTIVE: { word: 'Active', tone: 'success' },
  PAUSED: { word: 'Paused', tone: 'neutral', icon: Ban },
  AUTO_DISABLED: { word: 'Auto-disabled', tone: 'danger' },
  IN_PROGRESS: { word: 'In progress', tone: 'info', icon: Clock },
  DISCARDED: { word: 'Discarded', tone: 'neutral', icon: Ban },
};

export function statusWord(state: string): string {
  return states[state]?.word ?? sentenceCase(state);
}

function sentenceCase(state: string): string {
  const words = state.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a state looks: its word, tone and icon. Areas whose states read differently keep tables of their own. */
export interface Look {
  word: string;
  tone: Tone;
  icon: LucideIcon;
}

/** The one badge: icon + word + tone, the raw state in the title, an optional figure after the word. */
export function ToneBadge({
  look,
  raw,
  suffix,
  className,
}: {
  look: Look;
  raw: string;
  suffix?: string;
  className?: string;
}) {
  const Icon = look.icon;
  return (
    <span
      title={raw}
      className={cn(
        'inline-flex h-5 items-center gap-1 rounded px-1.5 text-[12px] leading-4 font-medium whitespace-nowrap',
        toneClass[look.tone],
        className,
      )}
    >
      <Icon aria-hidden="true" size={12} strokeWidth={2.25} />
      {look.word}
      {suffix ? <span className="tabular">{suffix}</span> : null}
    </span>
  );
}

export function StatusBadge({ state, className }: { state: string | null | undefined; className?: string }) {
  if (!state) return <span className="text-fg-2">—</span>;
  const known = states[state] ?? { word: sentenceCase(state), tone: 'neutral' as Tone };
  const look = { word: known.word, tone: known.tone, icon: known.icon ?? toneIcon[known.tone] };
  return <ToneBadge look={look} raw={state} className={className} />;
}

export function Tag({ children, tone = 'neutral' }: { children: ReactNode; tone?: Tone }) {
  return (
    <span className={cn('inline-flex h-5 items-center rounded px-1.5 text-[12px] font-medium', toneClass[tone])}>
      {children}
    </span>
  );
}
