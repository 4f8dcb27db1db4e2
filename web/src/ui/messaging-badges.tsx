// Badges of the messaging pages (SMS, codes, inboxes): icon + word + tone, never colour alone. The
// API's states here are lower case and some words mean other tones than the email ones
// (a code's "pending" is neutral, "refused" a warning), so they get their own table.
import {
  Ban,
  CircleAlert,
  CircleCheck,
  CircleDashed,
  CircleX,
  Clock,
  Send,
  ShieldAlert,
  ShieldCheck,
  type LucideIcon,
} from 'lucide-react';
import { cn } from './cn.ts';
import type { Tone } from './status-badge.tsx';

const toneClass: Record<Tone, string> = {
  neutral: 'text-[var(--tone-neutral)] bg-[var(--tone-neutral-bg)]',
  info: 'text-[var(--tone-info)] bg-[var(--tone-info-bg)]',
  success: 'text-[var(--tone-success)] bg-[var(--tone-success-bg)]',
  engagement: 'text-[var(--tone-engagement)] bg-[var(--tone-engagement-bg)]',
  warning: 'text-[var(--tone-warning)] bg-[var(--tone-warning-bg)]',
  danger: 'text-[var(--tone-danger)] bg-[var(--tone-danger-bg)]',
};

interface Look {
  word: string;
  tone: Tone;
  icon: LucideIcon;
}

const sms: Record<string, Look> = {
  queued: { word: 'Queued', tone: 'neutral', icon: Clock },
  sent: { word: 'Sent', tone: 'info', icon: Send },
  delivered: { word: 'Delivered', tone: 'success', icon: CircleCheck },
  failed: { word: 'Failed', tone: 'danger', icon: CircleX },
  // A rejected message's charge went back to the wallet (design brief: the row says "refunded").
  rejected: { word: 'Rejected', tone: 'danger', icon: CircleX },
};

const code: Record<string, Look> = {
  pending: { word: 'Pending', tone: 'neutral', icon: Clock },
  verified: { word: 'Verified', tone: 'success', icon: CircleCheck },
  expired: { word: 'Expired', tone: 'neutral', icon: CircleDashed },
  failed: { word: 'Failed', tone: 'danger', icon: CircleX },
  refused: { word: 'Refused', tone: 'warning', icon: Ban },
};

const risk: Record<string, Look> = {
  LOW: { word: 'Low', tone: 'neutral', icon: ShieldCheck },
  MEDIUM: { word: 'Medium', tone: 'warning', icon: ShieldAlert },
  HIGH: { word: 'High', tone: 'danger', icon: ShieldAlert },
};

const spam: Record<string, Look> = {
  clean: { word: 'Clean', tone: 'success', icon: CircleCheck },
  suspicious: { word: 'Suspicious', tone: 'warning', icon: CircleAlert },
  spam: { word: 'Spam', tone: 'danger', icon: CircleX },
};

const tables = { sms, code, risk, spam };

function Badge({ look, raw, suffix }: { look: Look; raw: string; suffix?: string }) {
  const Icon = look.icon;
  return (
    <span
      title={raw}
      className={cn(
        'inline-flex h-5 items-center gap-1 rounded px-1.5 text-[12px] leading-4 font-medium whitespace-nowrap',
        toneClass[look.tone],
      )}
    >
      <Icon aria-hidden="true" size={12} strokeWidth={2.25} />
      {look.word}
      {suffix ? <span className="tabular">{suffix}</span> : null}
    </span>
  );
}

/** The badge of an SMS status, a code status, a risk level or a spam verdict, as the API spells it. */
export function MessagingBadge({
  kind,
  state,
  suffix,
}: {
  kind: keyof typeof tables;
  state: string | null | undefined;
  suffix?: string;
}) {
  if (!state) return <span className="text-fg-2">—</span>;
  const look = tables[kind][state] ?? { word: state, tone: 'neutral' as Tone, icon: CircleDashed };
  return <Badge look={look} raw={state} suffix={suffix} />;
}

/** "Medium · 45": a risk level with its score. */
export function RiskBadge({ level, score }: { level: string; score: number }) {
  return <MessagingBadge kind="risk" state={level} suffix={`· ${score}`} />;
}
