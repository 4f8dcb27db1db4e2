// One condition of the builder: field · operator · value as native selects and inputs (keyboard and
// screen readers get them for free), each labelled with the condition's number, and the API's error
// for this condition under it.
import { X } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../ui/button.tsx';
import {
  events,
  fieldLabels,
  newLeaf,
  operators,
  takesValue,
  type LeafDraft,
  type LeafType,
  type PlacedError,
} from './segment-definition.tsx';

export interface Choice {
  id: string;
  name: string;
}

const control = 'h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10';

function Select({
  label,
  value,
  options,
  onChange,
  invalid,
  describedBy,
}: {
  label: string;
  value: string;
  options: Record<string, string>;
  onChange: (value: string) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  return (
    <select
      aria-label={label}
      className={control}
      value={value}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? describedBy : undefined}
      onChange={(e) => onChange(e.target.value)}
    >
      {Object.entries(options).map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </select>
  );
}

export function ConditionRow({
  label,
  draft,
  onChange,
  onRemove,
  variables,
  journeys,
  campaigns,
  errors,
}: {
  label: string;
  draft: LeafDraft;
  onChange: (next: LeafDraft) => void;
  onRemove: () => void;
  variables: readonly string[];
  journeys: readonly Choice[] | undefined;
  campaigns: readonly Choice[] | undefined;
  errors: readonly PlacedError[];
}) {
  const errorId = useId();
  const listId = useId();
  const of = `of condition ${label}`;
  const bad = (field: string) => errors.some((e) => e.field === field || (e.field === null && field === 'value'));
  const set = (change: Partial<LeafDraft>) => onChange({ ...draft, ...change });
  const setOp = (op: string) => {
    // Dates and day counts do not carry over between "before/after" and "in the last".
    const switchesKind = draft.type === 'added' && (op === 'in_last_days') !== (draft.op === 'in_last_days');
    set({ op, ...(switchesKind ? { value: '' } : {}) });
  };
  const keys = Object.fromEntries(
    [...variables, ...(draft.key && !variables.includes(draft.key) ? [draft.key] : [])].map((v) => [v, v]),
  );
  const valueType = draft.op === 'in_last_days' ? 'number' : draft.type === 'added' ? 'date' : 'text';
  const numeric = draft.type === 'property' && ['gt', 'gte', 'lt', 'lte'].includes(draft.op);

  return (
    <div className="rounded-md border border-line bg-bg p-2">
      <div className="flex flex-wrap items-center gap-2">
        <span aria-hidden="true" className="w-8 shrink-0 text-[12px] text-fg-2 tabular">
          {label}
        </span>
        <Select
          label={`Field ${of}`}
          value={draft.type}
          options={fieldLabels}
          onChange={(type) => onChange({ ...newLeaf(type as LeafType, variables), id: draft.id })}
        />
        {draft.type === 'property' ? (
          Object.keys(keys).length > 0 ? (
            <Select
              label={`Property ${of}`}
              value={draft.key}
              options={keys}
              onChange={(key) => set({ key })}
              invalid={bad('key')}
              describedBy={errorId}
            />
          ) : (
            <span className="text-[12px] text-fg-2">No variables: add them in the book’s Settings.</span>
          )
        ) : null}
        {events[draft.type] ? (
          <Select
            label={`Event ${of}`}
            value={draft.event}
            options={events[draft.type]!}
            onChange={(event) => set({ event })}
          />
        ) : null}
        <Select
          label={`Operator ${of}`}
          value={draft.op}
          options={operators[draft.type]}
          onChange={setOp}
          invalid={bad('op')}
          describedBy={errorId}
        />
        {draft.type === 'subscribed' ? (
          <Select
            label={`Value ${of}`}
            value={draft.value}
            options={{ true: 'yes', false: 'no' }}
            onChange={(value) => set({ value })}
          />
        ) : null}
        {takesValue(draft) ? (
          <input
            aria-label={draft.op === 'in_last_days' ? `Days ${of}` : `Value ${of}`}
            type={valueType}
            inputMode={numeric ? 'decimal' : undefined}
            min={draft.op === 'in_last_days' ? 1 : undefined}
            className={`${control} ${valueType === 'number' ? 'w-24' : 'min-w-0 flex-1 sm:max-w-64'}`}
            value={draft.value}
            aria-invalid={bad('value') || bad('days') || undefined}
            aria-describedby={errors.length > 0 ? errorId : undefined}
            onChange={(e) => set({ value: e.target.value })}
          />
        ) : null}
        {draft.type === 'journey' ? (
          journeys && journeys.length > 0 ? (
            <Select
              label={`Journey ${of}`}
              value={draft.journeyId}
              options={{ '': 'Choose a journey', ...Object.fromEntries(journeys.map((j) => [j.id, j.name])) }}
              onChange={(journeyId) => set({ journeyId })}
              invalid={bad('journeyId')}
              describedBy={errorId}
            />
          ) : (
            <input
              aria-label={`Journey id ${of}`}
              placeholder="Journey id"
              className={`${control} min-w-0 flex-1 font-mono sm:max-w-64`}
              value={draft.journeyId}
              onChange={(e) => set({ journeyId: e.target.value })}
            />
          )
        ) : null}
        {draft.type === 'email_activity' ? (
          <>
            <input
              aria-label={`Campaign ${of} (optional)`}
              placeholder="Any email, or a campaign id"
              list={listId}
              className={`${control} min-w-0 flex-1 sm:max-w-64`}
              value={draft.campaignId}
              aria-invalid={bad('campaignId') || undefined}
              onChange={(e) => set({ campaignId: e.target.value })}
            />
            <datalist id={listId}>
              {campaigns?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </datalist>
          </>
        ) : null}
        <Button variant="ghost" className="ml-auto" aria-label={`Remove condition ${label}`} onClick={onRemove}>
          <X aria-hidden="true" size={14} />
        </Button>
      </div>
      {errors.length > 0 ? (
        <ul id={errorId} className="mt-1 pl-10 text-[13px] text-[var(--tone-danger)]">
          {errors.map((e, i) => (
            <li key={i}>{e.field ? `${e.field}: ${e.message}` : e.message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
