// Create a journey: its fields and its steps in one dialog (the API takes them in one request and
// needs at least one step), then on to its page, where it is a draft until activated.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, must } from '../api/client.ts';
import { FormDialog } from '../ui/dialog.tsx';
import { journeyErrors, useOnOpen, useVerifiedDomainNames } from './journey-data.tsx';
import { bodyOf, emptyJourneyForm, JOURNEY_FIELDS, JourneyFields, type JourneyForm } from './journey-fields.tsx';
import { newStep, StepsEditor, toSteps, type StepDraft } from './journey-steps-editor.tsx';

export function CreateJourney({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const domains = useVerifiedDomainNames();
  const [form, setForm] = useState<JourneyForm>(emptyJourneyForm);
  const [drafts, setDrafts] = useState<StepDraft[]>([]);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => must(api.POST('/api/v1/journeys', { body: { ...bodyOf(form), steps: toSteps(drafts) } })),
    onSuccess: async (journey) => {
      queryClient.setQueryData(['journeys', 'one', journey.id], journey);
      await queryClient.invalidateQueries({ queryKey: ['journeys', 'list'] });
      onOpenChange(false);
      navigate(`/journeys/${journey.id}`);
    },
  });
  const errors = journeyErrors(create.error, JOURNEY_FIELDS);
  // A fresh form at each opening, starting with one email step from the first verified domain.
  useOnOpen(open, () => {
    setForm(emptyJourneyForm);
    setDrafts([newStep('EMAIL', [], domains[0] ? `hello@${domains[0]}` : '')]);
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
      title="Create a journey"
      description="A journey sends its steps in order to each contact it enrols. It starts as a draft: nothing is sent until you activate it."
      submitLabel="Create journey"
      pending={create.isPending}
      error={errors.form}
      onSubmit={() => create.mutate()}
    >
      <JourneyFields value={form} onChange={setForm} errors={errors.fields} />
      <fieldset>
        <legend className="mb-2 text-[13px] font-medium">Steps</legend>
        <StepsEditor drafts={drafts} onChange={setDrafts} errors={errors.steps} stepsError={errors.fields.steps} />
      </fieldset>
    </FormDialog>
  );
}
