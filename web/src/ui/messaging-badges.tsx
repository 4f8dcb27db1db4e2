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
} from 'lucide-react';
import { ToneBadge, type Look, type Tone } from './status-badge.tsx';

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
  return <ToneBadge look={look} raw={state} suffix={suffix} />;
}

/** "Medium · 45": a risk level with its score. */
export function RiskBadge({ level, score }: { level: string; score: number }) {
  return <MessagingBadge kind="risk" state={level} suffix={`· ${score}`} />;
}
