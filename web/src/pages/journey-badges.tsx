// Journey and run states as icon + word + tone (design brief: journey Draft, Paused, Archived neutral,
// Pending review warning, Active success; run Active info, Completed success, Exited neutral, Failed
// danger). The shared StatusBadge keys tones by state name alone, and a run's ACTIVE is not a
// journey's, so these two live here.
import { Ban, CircleAlert, CircleCheck, CircleDashed, CircleX, LogOut, Play, type LucideIcon } from 'lucide-react';
import { cn } from '../ui/cn.ts';
import type { JourneyStatus, RunStatus } from './journey-data.tsx';

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';
const toneClass: Record<Tone, string> = {
  neutral: 'text-[var(--tone-neutral)] bg-[var(--tone-neutral-bg)]',
  info: 'text-[var(--tone-info)] bg-[var(--tone-info-bg)]',
  success: 'text-[var(--tone-success)] bg-[var(--tone-success-bg)]',
  warning: 'text-[var(--tone-warning)] bg-[var(--tone-warning-bg)]',
  danger: 'text-[var(--tone-danger)] bg-[var(--tone-danger-bg)]',
};

interface Look {
  word: string;
  tone: Tone;
  icon: LucideIcon;
}

const journeyLooks: Record<JourneyStatus, Look> = {
  DRAFT: { word: 'Draft', tone: 'neutral', icon: CircleDashed },
  PENDING_REVIEW: { word: 'Pending review', tone: 'warning', icon: CircleAlert },
  ACTIVE: { word: 'Active', tone: 'success', icon: CircleCheck },
  PAUSED: { word: 'Paused', tone: 'neutral', icon: Ban },
  ARCHIVED: { word: 'Archived', tone: 'neutral', icon: Ban },
};

const runLooks: Record<RunStatus, Look> = {
  ACTIVE: { word: 'Active', tone: 'info', icon: Play },
  COMPLETED: { word: 'Completed', tone: 'success', icon: CircleCheck },
  EXITED: { word: 'Exited', tone: 'neutral', icon: LogOut },
  FAILED: { word: 'Failed', tone: 'danger', icon: CircleX },
};

export const journeyStatusWord = (status: JourneyStatus) => journeyLooks[status]?.word ?? status;
export const runStatusWord = (status: RunStatus) => runLooks[status]?.word ?? status;

function Badge({ look, state }: { look: Look | undefined; state: string }) {
  const { word, tone, icon: Icon } = look ?? { word: state, tone: 'neutral' as Tone, icon: CircleDashed };
  return (
    <span
      title={state}
      className={cn(
        'inline-flex h-5 items-center gap-1 rounded px-1.5 text-[12px] leading-4 font-medium whitespace-nowrap',
        toneClass[tone],
      )}
    >
      <Icon aria-hidden="true" size={12} strokeWidth={2.25} />
      {word}
    </span>
  );
}

export function JourneyBadge({ status }: { status: JourneyStatus }) {
  return <Badge look={journeyLooks[status]} state={status} />;
}

export function RunBadge({ status }: { status: RunStatus }) {
  return <Badge look={runLooks[status]} state={status} />;
}
