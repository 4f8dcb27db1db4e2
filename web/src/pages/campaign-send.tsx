// The last two steps of a draft: a test copy to the signed-in member (seen in Emails, and on the
// log transport in the outbox), and Schedule: now, or at a local date and time (zone shown).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { Field, FormDialog, inputClass } from '../ui/dialog.tsx';
import { formatAbsolute } from '../ui/time.tsx';
import { campaignFieldErrors, type Campaign } from './campaign-common.tsx';

/** Saves unsent changes first (a test or a schedule uses the stored campaign); resolves false on failure. */
export type SaveFirst = () => Promise<boolean>;

export function TestSend({
  campaign,
  saveFirst,
  onSent,
}: {
  campaign: Campaign;
  saveFirst: SaveFirst;
  onSent?: () => void;
}) {
  const session = useSignedIn();
  const to = session.member.email;
  const test = useMutation({
    mutationFn: async () => {
      if (!(await saveFirst())) throw new Error('The changes were not saved: see the errors above.');
      return must(
        api.POST('/api/v1/campaigns/{id}/test', { params: { path: { id: campaign.id } }, body: { to: [to] } }),
      );
    },
    onSuccess: () => onSent?.(),
  });
  const sent = test.data?.data[0];
  return (
    <div className="space-y-2">
      <p className="text-[13px] text-fg-2">
        One copy to you, with “[Test]” before the subject and your own unsubscribe link. It counts in no statistic.
      </p>
      <Button disabled={test.isPending} onClick={() => test.mutate()}>
        {test.isPending ? 'Sending…' : `Send a test to ${to}`}
      </Button>
      <div role="status" aria-live="polite" className="text-[13px]">
        {sent ? (
          <>
            Test sent to {sent.to}.{' '}
            <Link to={`/emails/${sent.emailId}`} className="text-link underline underline-offset-2">
              View the test email
            </Link>
          </>
        ) : null}
      </div>
      {test.isError ? (
        <p role="alert" className="text-[13px] text-[var(--tone-danger)]">
          {test.error.message}
        </p>
      ) : null}
    </div>
  );
}

/** `datetime-local` value (local wall time) for a date: `2026-11-29T14:03`. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const zoneName = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function ScheduleDialog({
  campaign,
  open,
  onOpenChange,
  saveFirst,
}: {
  campaign: Campaign;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  saveFirst?: SaveFirst;
}) {
  const queryClient = useQueryClient();
  const name = useId();
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState(() =>
    localInputValue(campaign.scheduledAt ? new Date(campaign.scheduledAt) : new Date(Date.now() + 3600_000)),
  );
  const schedule = useMutation({
    mutationFn: async () => {
      if (saveFirst && !(await saveFirst())) throw new Error('The changes were not saved: see the errors in the form.');
      const time = new Date(at);
      if (when === 'later' && Number.isNaN(time.getTime())) throw new Error('Choose a date and time to start at.');
      return must(
        api.POST('/api/v1/campaigns/{id}/schedule', {
          params: { path: { id: campaign.id } },
          body: when === 'later' ? { scheduledAt: time.toISOString() } : {},
        }),
      );
    },
    onSuccess: async () => {
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: ['campaigns'] });
    },
  });
  const errors = campaignFieldErrors(schedule.error, ['scheduledAt']);
  const reschedule = campaign.status === 'SCHEDULED';
  const later = new Date(at);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) schedule.reset();
        onOpenChange(next);
      }}
      title={reschedule ? `Reschedule ${campaign.name}?` : `Schedule ${campaign.name}?`}
      description="Herald takes the audience when it starts and sends to each subscribed contact once. You can pause it until it is sent."
      submitLabel={when === 'now' ? 'Send now' : 'Schedule'}
      pending={schedule.isPending}
      error={errors.rest}
      onSubmit={() => schedule.mutate()}
    >
      <fieldset className="space-y-2">
        <legend className="mb-1 text-[13px] font-medium">When</legend>
        <label className="flex items-center gap-2 text-[13px]">
          <input
            type="radio"
            name={name}
            className="size-4 accent-[var(--accent)]"
            checked={when === 'now'}
            onChange={() => setWhen('now')}
          />
          Now
        </label>
        <label className="flex items-center gap-2 text-[13px]">
          <input
            type="radio"
            name={name}
            className="size-4 accent-[var(--accent)]"
            checked={when === 'later'}
            onChange={() => setWhen('later')}
          />
          At a date and time
        </label>
      </fieldset>
      {when === 'later' ? (
        <Field
          label="Start at"
          hint={`Your time zone, ${zoneName()}${Number.isNaN(later.getTime()) ? '' : `: ${formatAbsolute(later, 'utc')} UTC`}`}
          error={errors.fields.scheduledAt}
        >
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              className={inputClass}
              value={at}
              onChange={(e) => setAt(e.target.value)}
            />
          )}
        </Field>
      ) : null}
    </FormDialog>
  );
}
