// What the tracking endpoints hand their events to (emails/tracking-event-writers.ts writes them into the
// Emails area; app.ts wires the two): the routes import no area, so the area can import tracking.
import type { TrackedEmail } from './tokens.ts';

/** An open of a tracked copy (the email, or a MARKETING recipient's copy). */
export interface TrackedOpen {
  teamId: number;
  emailId: string;
  /** The MARKETING copy's recipient, or null for the email. */
  recipient: string | null;
  userAgent: string | null;
  at: Date;
}

export interface TrackedClick {
  target: TrackedEmail;
  data: Record<string, string | null>;
  at: Date;
}

export interface TrackingWriters {
  /** Queues the event; a promise only when the backlog is past its limit (then wait for it). */
  open(open: TrackedOpen): Promise<void> | null;
  click(click: TrackedClick): Promise<void> | null;
  /** Resolves when everything queued so far is written. */
  drained(): Promise<void>;
}
