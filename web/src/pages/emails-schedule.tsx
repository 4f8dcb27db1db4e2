// A scheduled email's actions on its detail page: Reschedule (a local date and time, the zone named;
// the API's field error beside the field) and Cancel (confirmed: it is final). Both answer 409 once
// delivery has taken the email; that message shows in the dialog.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import type { paths } from '../api/schema';
import { Button } from '../ui/button.tsx';
import { ConfirmDialog, Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { formatAbsolute } from '../ui/time.tsx';

type Email = paths['/api/v1/emails/{emailId}']['get']['responses'][200]['content']['application/json'];

/** When the email is due: the newest event that carries a scheduledAt (the send, or a reschedule). */
export function scheduledAtOf(email: Email): string | null {
  for (const event of [...email.emailEvents].reverse()) {
    const at = (event.data as { scheduledAt?: unknown } | null)?.scheduledAt;
    if (typeof at === 'string') return at;
  }
  return null;
}

/** `<input type=datetime-local>`'s value for a time, in the browser's zone. */
function localInputValue(iso: string | null): string {
  const date = iso ? new Date(iso) : new Date(Date.now() + 3600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function zoneName(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = -new Date().getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '−';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${zone} (UTC${sign}${hours}:${minutes})`;
}

export function ScheduleActions({ email }: { email: Email }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'reschedule' | 'cancel' | null>(null);
  const scheduledAt = scheduledAtOf(email);
  const [when, setWhen] = useState(() => localInputValue(scheduledAt));
  const path = { params: { path: { emailId: email.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['emails'] });
  const reschedule = useMutation({
    mutationFn: () => {
      const date = new Date(when);
      // An empty or impossible value goes to the API as is, which names the field.
      const value = Number.isNaN(date.getTime()) ? when : date.toISOString();
      return must(api.PATCH('/api/v1/emails/{emailId}', { ...path, body: { scheduledAt: value } }));
    },
    onSuccess: async () => {
      setOpen(null);
      await refresh();
      toast('Email rescheduled');
    },
  });
  const cancel = useMutation({
    mutationFn: () => must(api.POST('/api/v1/emails/{emailId}/cancel', path)),
    onSuccess: async () => {
      setOpen(null);
      await refresh();
      toast('Email cancelled');
    },
  });
  if (email.latestStatus !== 'SCHEDULED') return null;
  const failure = splitFieldError(reschedule.error, ['scheduledAt']);
  const due = scheduledAt ? formatAbsolute(new Date(scheduledAt), 'local') : 'its scheduled time';
  return (
    <>
      <Button
        onClick={() => {
          reschedule.reset();
          setWhen(localInputValue(scheduledAt));
          setOpen('reschedule');
        }}
      >
        Reschedule
      </Button>
      <Button
        variant="danger"
        onClick={() => {
          cancel.reset();
          setOpen('cancel');
        }}
      >
        Cancel email
      </Button>
      <FormDialog
        open={open === 'reschedule'}
        onOpenChange={(next) => setOpen(next ? 'reschedule' : null)}
        title="Reschedule email"
        description={`Now due ${due}. A time in the past sends it at once.`}
        submitLabel="Reschedule"
        pending={reschedule.isPending}
        error={failure?.field ? null : (failure?.message ?? null)}
        onSubmit={() => reschedule.mutate()}
      >
        <Field
          label="Send at"
          hint={`Your time zone: ${zoneName()}`}
          error={failure?.field === 'scheduledAt' ? failure.message : undefined}
        >
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              className={inputClass}
              value={when}
              onChange={(e) => setWhen(e.target.value)}
            />
          )}
        </Field>
      </FormDialog>
      <ConfirmDialog
        open={open === 'cancel'}
        onOpenChange={(next) => setOpen(next ? 'cancel' : null)}
        title={`Cancel “${email.subject || 'this email'}”?`}
        description={`It was due ${due} and will not be sent. A cancelled email cannot be scheduled again.`}
        confirmLabel="Cancel email"
        pending={cancel.isPending}
        error={cancel.error?.message ?? null}
        onConfirm={() => cancel.mutate()}
      />
    </>
  );
}
