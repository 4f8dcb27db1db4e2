// Journey and run states as icon + word + tone (design brief: journey Draft, Paused, Archived neutral,
// Pending review warning, Active success; run Active info, Completed success, Exited neutral, Failed
// danger). The shared StatusBadge keys tones by state name alone, and a run's ACTIVE is not a
// journey's, so these two live here.
import { Ban, CircleAlert, CircleCheck, CircleDashed, CircleX, LogOut, Play } from 'lucide-react';
import { ToneBadge, type Look } from '../ui/status-badge.tsx';
import type { JourneyStatus, RunStatus } from './journey-data.tsx';

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

const unknown = (state: string): Look => ({ word: state, tone: 'neutral', icon: CircleDashed });

export const journeyStatusWord = (status: JourneyStatus) => journeyLooks[status]?.word ?? status;
export const runStatusWord = (status: RunStatus) => runLooks[status]?.word ?? status;

export function JourneyBadge({ status }: { status: JourneyStatus }) {
  return <ToneBadge look={journeyLooks[status] ?? unknown(status)} raw={status} />;
}

export function RunBadge({ status }: { status: RunStatus }) {
  return <ToneBadge look={runLooks[status] ?? unknown(status)} raw={status} />;
}
