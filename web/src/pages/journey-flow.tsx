// A journey's steps as a vertical flow: the trigger, then each step in order with what it does and,
// for an email step, how many emails it has sent. "Edit steps" turns the flow into the editor while
// the journey is a draft or paused (the API refuses step changes otherwise).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Clock, Mail, Zap } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { formatCount, formatPercent, ratio } from '../ui/format.ts';
import {
  formatWait,
  journeyErrors,
  useContactBooks,
  useTemplates,
  type Journey,
  type JourneyStep,
} from './journey-data.tsx';
import { fromSteps, StepsEditor, toSteps, type StepDraft } from './journey-steps-editor.tsx';

/** The flow's left rail: a node with the step's icon, and a line down to the next one. */
function Rail({ children, last }: { children: ReactNode; last?: boolean }) {
  return (
    <div aria-hidden="true" className="flex w-8 shrink-0 flex-col items-center">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-full border border-control bg-surface">
        {children}
      </span>
      {last ? null : <span className="w-px flex-1 bg-[var(--control)]" />}
    </div>
  );
}

function StepCard({ step, index, journey }: { step: JourneyStep; index: number; journey: Journey }) {
  const templates = useTemplates();
  const sent = step.type === 'EMAIL' ? (journey.stats.sentByStep[step.id] ?? 0) : 0;
  const template = step.type === 'EMAIL' ? templates.data?.find((t) => t.id === step.templateId) : undefined;
  return (
    <div className="flex gap-3">
      <Rail last={index === journey.steps.length - 1}>
        {step.type === 'EMAIL' ? <Mail size={14} /> : <Clock size={14} />}
      </Rail>
      <div className="mb-4 min-w-0 flex-1 rounded-lg border border-line p-3 text-[13px]">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 className="font-medium">
            Step {index + 1}: {step.type === 'EMAIL' ? 'Send email' : `Wait ${formatWait(step.seconds)}`}
          </h2>
          {step.type === 'EMAIL' ? (
            <p className="text-fg-2 tabular">
              <span className="font-semibold text-fg">{formatCount(sent)}</span> sent
              {journey.stats.enrolled > 0 ? ` · ${formatPercent(ratio(sent, journey.stats.enrolled))} of enrolled` : ''}
            </p>
          ) : null}
        </div>
        {step.type === 'EMAIL' ? (
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
            <dt className="text-fg-2">Template</dt>
            <dd className="min-w-0 truncate">
              <Link to={`/templates/${step.templateId}`} className="text-link underline underline-offset-2">
                {template?.name ?? step.templateId}
              </Link>
            </dd>
            <dt className="text-fg-2">From</dt>
            <dd className="min-w-0 truncate font-mono text-[12px]">{step.from}</dd>
            <dt className="text-fg-2">Subject</dt>
            <dd className="min-w-0 truncate">{step.subject ?? template?.subject ?? "The template's"}</dd>
          </dl>
        ) : (
          <p className="mt-1 text-fg-2">The next step runs {formatWait(step.seconds)} later.</p>
        )}
        <p className="mt-2 font-mono text-[12px] text-fg-2">id {step.id}</p>
      </div>
    </div>
  );
}

function Trigger({ journey: j }: { journey: Journey }) {
  const books = useContactBooks();
  const book = books.data?.find((b) => b.id === j.contactBookId)?.name ?? j.contactBookId;
  return (
    <div className="flex gap-3 text-[13px]">
      <Rail>
        <Zap size={14} />
      </Rail>
      <p className="mb-6 pt-1.5">
        <span className="font-medium">Trigger: </span>
        {j.triggerType === 'API'
          ? 'a contact of the book is enrolled through the API'
          : `a contact is added to ${book ?? 'the book'}`}
        {j.segmentId ? ', if it matches the segment' : ''}
      </p>
    </div>
  );
}

export function JourneyFlow({ journey: j }: { journey: Journey }) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<StepDraft[] | null>(null);
  const editable = j.status === 'DRAFT' || j.status === 'PAUSED';
  const dirty = drafts !== null && JSON.stringify(toSteps(drafts)) !== JSON.stringify(j.steps);
  // A dirty editor guards leaving the page (the router is declarative: in-app links are not held).
  useEffect(() => {
    if (!dirty) return;
    const hold = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', hold);
    return () => window.removeEventListener('beforeunload', hold);
  }, [dirty]);
  const save = useMutation({
    mutationFn: (steps: JourneyStep[]) =>
      must(api.PATCH('/api/v1/journeys/{id}', { params: { path: { id: j.id } }, body: { steps } })),
    onSuccess: async (answer) => {
      queryClient.setQueryData(['journeys', 'one', j.id], answer);
      setDrafts(null);
      toast('Steps saved');
      await queryClient.invalidateQueries({ queryKey: ['journeys', 'list'] });
    },
  });

  if (drafts !== null) {
    const errors = journeyErrors(save.error, ['steps']);
    return (
      <form
        aria-label="Edit steps"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(toSteps(drafts));
        }}
      >
        <StepsEditor drafts={drafts} onChange={setDrafts} errors={errors.steps} stepsError={errors.fields.steps} />
        {errors.form ? (
          <p role="alert" className="mt-3 text-[13px] text-[var(--tone-danger)]">
            {errors.form}
          </p>
        ) : null}
        <div className="mt-4 flex gap-2 border-t border-line pt-4">
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save steps
          </Button>
          <Button
            onClick={() => {
              save.reset();
              setDrafts(null);
            }}
          >
            Cancel
          </Button>
        </div>
      </form>
    );
  }

  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <p className="text-[13px] text-fg-2">
          {editable
            ? `${j.steps.length} ${j.steps.length === 1 ? 'step' : 'steps'}, run in order for each contact.`
            : j.status === 'ARCHIVED'
              ? 'An archived journey cannot change.'
              : 'Steps change only while the journey is a draft or paused: pause it to edit them.'}
        </p>
        {editable ? (
          <Button
            onClick={() => {
              save.reset();
              setDrafts(fromSteps(j.steps));
            }}
          >
            Edit steps
          </Button>
        ) : null}
      </div>
      <Trigger journey={j} />
      <ol aria-label="Journey steps">
        {j.steps.map((step, index) => (
          <li key={step.id}>
            <StepCard step={step} index={index} journey={j} />
          </li>
        ))}
      </ol>
    </div>
  );
}
