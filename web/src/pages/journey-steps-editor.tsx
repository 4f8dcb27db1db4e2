// The steps of a journey as a form: a vertical list, each step an Email (template, From, subject) or
// a Wait (a number and a unit), moved up or down, removed, added at the end. What it holds are drafts;
// `toSteps` gives the API's step objects, and the API's field errors come back per step.
import { ArrowDown, ArrowUp, Clock, Mail, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../ui/button.tsx';
import { Field, inputClass } from '../ui/dialog.tsx';
import { useTemplates, useVerifiedDomainNames, WAIT_UNITS, type JourneyStep, type WaitUnit } from './journey-data.tsx';

export interface StepDraft {
  /** React's key: stable while the id is edited or the step moves. */
  key: string;
  id: string;
  type: JourneyStep['type'];
  templateId: string;
  from: string;
  subject: string;
  amount: string;
  unit: WaitUnit;
}

let keys = 0;
const nextKey = () => `draft-${++keys}`;

export function fromSteps(steps: JourneyStep[]): StepDraft[] {
  return steps.map((step) => {
    const base = {
      key: nextKey(),
      id: step.id,
      templateId: '',
      from: '',
      subject: '',
      amount: '1',
      unit: 'days' as WaitUnit,
    };
    if (step.type === 'EMAIL')
      return { ...base, type: 'EMAIL', templateId: step.templateId, from: step.from, subject: step.subject ?? '' };
    // The largest unit that says the wait exactly.
    const unit = [...WAIT_UNITS].reverse().find((u) => step.seconds % u.seconds === 0) ?? WAIT_UNITS[0];
    return { ...base, type: 'WAIT', amount: String(step.seconds / unit.seconds), unit: unit.unit };
  });
}

export function toSteps(drafts: StepDraft[]): JourneyStep[] {
  return drafts.map((d) => {
    if (d.type === 'EMAIL')
      return {
        id: d.id,
        type: 'EMAIL' as const,
        templateId: d.templateId,
        from: d.from.trim(),
        ...(d.subject.trim() ? { subject: d.subject.trim() } : {}),
      };
    // Sent as typed: a wait that is not a whole number of seconds gets the API's own answer.
    const size = WAIT_UNITS.find((u) => u.unit === d.unit)!.seconds;
    return { id: d.id, type: 'WAIT' as const, seconds: Number(d.amount) * size };
  });
}

export function newStep(type: JourneyStep['type'], drafts: StepDraft[], from = ''): StepDraft {
  const prefix = type === 'EMAIL' ? 'email' : 'wait';
  const taken = new Set(drafts.map((d) => d.id));
  let n = drafts.length + 1;
  while (taken.has(`${prefix}-${n}`)) n++;
  return { key: nextKey(), id: `${prefix}-${n}`, type, templateId: '', from, subject: '', amount: '1', unit: 'days' };
}

export const STEPS_MAX = 50;

const iconButton =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-fg-2 hover:bg-muted hover:text-fg disabled:cursor-not-allowed disabled:opacity-40 pointer-coarse:size-10';

export function StepsEditor({
  drafts,
  onChange,
  errors,
  stepsError,
}: {
  drafts: StepDraft[];
  onChange: (next: StepDraft[]) => void;
  errors: Record<number, Record<string, string>>;
  stepsError?: string;
}) {
  const templates = useTemplates();
  const domains = useVerifiedDomainNames();
  const defaultFrom = domains[0] ? `hello@${domains[0]}` : '';
  const set = (index: number, change: Partial<StepDraft>) =>
    onChange(drafts.map((d, i) => (i === index ? { ...d, ...change } : d)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...drafts];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    onChange(next);
  };
  const fromHint = domains.length
    ? `An address on a verified domain: ${domains.join(', ')}`
    : 'No verified domain yet: the API refuses an address until one is verified.';
  return (
    <div>
      <ol aria-label="Steps" className="space-y-3">
        {drafts.map((draft, index) => {
          const err = errors[index] ?? {};
          const name = `Step ${index + 1}: ${draft.type === 'EMAIL' ? 'Email' : 'Wait'}`;
          const known = templates.data?.some((t) => t.id === draft.templateId);
          return (
            <li key={draft.key}>
              <fieldset className="space-y-3 rounded-lg border border-line p-3">
                <legend className="flex items-center gap-1.5 px-1 text-[13px] font-medium">
                  {draft.type === 'EMAIL' ? (
                    <Mail aria-hidden="true" size={14} />
                  ) : (
                    <Clock aria-hidden="true" size={14} />
                  )}
                  {name}
                </legend>
                <div className="-mt-2 flex flex-wrap items-center justify-between gap-2">
                  <code className="font-mono text-[12px] text-fg-2">id {draft.id}</code>
                  <span className="flex gap-1">
                    <button
                      type="button"
                      className={iconButton}
                      aria-label={`Move step ${index + 1} up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      <ArrowUp aria-hidden="true" size={14} />
                    </button>
                    <button
                      type="button"
                      className={iconButton}
                      aria-label={`Move step ${index + 1} down`}
                      disabled={index === drafts.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      <ArrowDown aria-hidden="true" size={14} />
                    </button>
                    <button
                      type="button"
                      className={iconButton}
                      aria-label={`Remove step ${index + 1}`}
                      disabled={drafts.length === 1}
                      onClick={() => onChange(drafts.filter((_, i) => i !== index))}
                    >
                      <Trash2 aria-hidden="true" size={14} />
                    </button>
                  </span>
                </div>
                {err.id || err.type ? (
                  <p className="text-[13px] text-[var(--tone-danger)]">{err.id ?? err.type}</p>
                ) : null}
                {draft.type === 'EMAIL' ? (
                  <>
                    <Field
                      label="Template"
                      error={err.templateId}
                      hint={
                        templates.data?.length === 0 ? 'No templates yet: make one under Templates first.' : undefined
                      }
                    >
                      {(props) => (
                        <select
                          {...props}
                          className={inputClass}
                          value={draft.templateId}
                          onChange={(e) => set(index, { templateId: e.target.value })}
                        >
                          <option value="">Choose a template</option>
                          {draft.templateId && templates.data && !known ? (
                            <option value={draft.templateId}>{draft.templateId}</option>
                          ) : null}
                          {templates.data?.map((t) => (
                            <option key={t.id} value={t.id}>
                              {t.name}
                            </option>
                          ))}
                        </select>
                      )}
                    </Field>
                    <Field label="From" error={err.from} hint={fromHint}>
                      {(props) => (
                        <input
                          {...props}
                          className={inputClass}
                          value={draft.from}
                          placeholder={defaultFrom || 'Name <hello@example.com>'}
                          autoComplete="off"
                          onChange={(e) => set(index, { from: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field
                      label="Subject (optional)"
                      error={err.subject}
                      hint="Empty: the template's subject. Contact variables work, e.g. {{firstName}}."
                    >
                      {(props) => (
                        <input
                          {...props}
                          className={inputClass}
                          value={draft.subject}
                          onChange={(e) => set(index, { subject: e.target.value })}
                        />
                      )}
                    </Field>
                  </>
                ) : (
                  <Field label="Wait for" error={err.seconds} hint="Up to 365 days.">
                    {(props) => (
                      <span className="flex gap-2">
                        <input
                          {...props}
                          className={`${inputClass} max-w-32`}
                          type="number"
                          inputMode="numeric"
                          min={1}
                          value={draft.amount}
                          onChange={(e) => set(index, { amount: e.target.value })}
                        />
                        <select
                          aria-label={`Unit of step ${index + 1}'s wait`}
                          className={`${inputClass} max-w-32`}
                          value={draft.unit}
                          onChange={(e) => set(index, { unit: e.target.value as WaitUnit })}
                        >
                          {WAIT_UNITS.map((u) => (
                            <option key={u.unit} value={u.unit}>
                              {u.label}
                            </option>
                          ))}
                        </select>
                      </span>
                    )}
                  </Field>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {stepsError ? <p className="mt-2 text-[13px] text-[var(--tone-danger)]">{stepsError}</p> : null}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button
          disabled={drafts.length >= STEPS_MAX}
          onClick={() => onChange([...drafts, newStep('EMAIL', drafts, defaultFrom)])}
        >
          <Mail aria-hidden="true" size={14} /> Add email step
        </Button>
        <Button disabled={drafts.length >= STEPS_MAX} onClick={() => onChange([...drafts, newStep('WAIT', drafts)])}>
          <Clock aria-hidden="true" size={14} /> Add wait step
        </Button>
        {templates.data?.length === 0 ? (
          <Link to="/templates" className="text-[13px] text-link underline underline-offset-2">
            Templates
          </Link>
        ) : null}
      </div>
    </div>
  );
}
