// Two dialogs of a journey's page: Edit details (name, trigger, book, segment; any status but
// archived) and Enrol contact (by address: found in the journey's book, or added to it).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { journeyErrors, useOnOpen, type Journey } from './journey-data.tsx';
import { bodyOf, formOf, JOURNEY_FIELDS, JourneyFields, type JourneyForm } from './journey-fields.tsx';

export function EditJourney({
  journey,
  open,
  onOpenChange,
}: {
  journey: Journey;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<JourneyForm>(() => formOf(journey));
  useOnOpen(open, () => setForm(formOf(journey)));
  const save = useMutation({
    mutationFn: () =>
      must(api.PATCH('/api/v1/journeys/{id}', { params: { path: { id: journey.id } }, body: bodyOf(form) })),
    onSuccess: async (answer) => {
      queryClient.setQueryData(['journeys', 'one', journey.id], answer);
      onOpenChange(false);
      toast('Journey saved');
      await queryClient.invalidateQueries({ queryKey: ['journeys', 'list'] });
    },
  });
  const errors = journeyErrors(save.error, JOURNEY_FIELDS);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) save.reset();
        onOpenChange(next);
      }}
      title="Edit the journey"
      submitLabel="Save"
      pending={save.isPending}
      error={errors.form}
      onSubmit={() => save.mutate()}
    >
      <JourneyFields value={form} onChange={setForm} errors={errors.fields} />
    </FormDialog>
  );
}

export function EnrolContact({
  journey,
  open,
  onOpenChange,
}: {
  journey: Journey;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  useOnOpen(open, () => setEmail(''));
  const enrol = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/journeys/{id}/enroll', {
          params: { path: { id: journey.id } },
          body: { email: email.trim() },
        }),
      ),
    onSuccess: async () => {
      onOpenChange(false);
      toast(`Enrolled ${email.trim()}`);
      await queryClient.invalidateQueries({ queryKey: ['journeys', 'one', journey.id] });
      await queryClient.invalidateQueries({ queryKey: ['journey-runs', journey.id] });
    },
  });
  const failure = splitFieldError(enrol.error, ['email']);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) enrol.reset();
        onOpenChange(next);
      }}
      title="Enrol a contact"
      description={
        journey.status === 'PAUSED'
          ? 'The run starts at step 1 when the journey is resumed. An address not in the book is added to it.'
          : 'The run starts at step 1 at once. An address not in the book is added to it.'
      }
      submitLabel="Enrol"
      pending={enrol.isPending}
      error={failure && !failure.field ? failure.message : null}
      onSubmit={() => enrol.mutate()}
    >
      <Field label="Email address" error={failure?.field === 'email' ? failure.message : undefined}>
        {(props) => (
          <input
            {...props}
            className={inputClass}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
