// The condition builder: match all/any, a list of conditions and groups (one level deep, as the API
// allows), add and remove either, at most 20 conditions counting those in groups. Conditions are
// numbered as shown ("2", "2.1" inside a group), which is how the API's errors find their row.
import { Button } from '../ui/button.tsx';
import { ConditionRow, type Choice } from './segment-condition.tsx';
import {
  CONDITIONS_MAX,
  countConditions,
  newGroup,
  newLeaf,
  type ConditionDraft,
  type DefinitionDraft,
  type GroupDraft,
  type LeafDraft,
  type Match,
  type PlacedError,
} from './segment-definition.tsx';

const control = 'h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10';

function MatchSelect({ label, value, onChange }: { label: string; value: Match; onChange: (m: Match) => void }) {
  return (
    <select aria-label={label} className={control} value={value} onChange={(e) => onChange(e.target.value as Match)}>
      <option value="all">all</option>
      <option value="any">any</option>
    </select>
  );
}

interface Lookups {
  variables: readonly string[];
  journeys: readonly Choice[] | undefined;
  campaigns: readonly Choice[] | undefined;
}

function Group({
  label,
  group,
  onChange,
  onRemove,
  full,
  errors,
  lookups,
}: {
  label: string;
  group: GroupDraft;
  onChange: (next: GroupDraft) => void;
  onRemove: () => void;
  full: boolean;
  errors: readonly PlacedError[];
  lookups: Lookups;
}) {
  const own = errors.filter((e) => e.condition === label);
  const setLeaf = (index: number, next: LeafDraft) =>
    onChange({ ...group, conditions: group.conditions.map((c, i) => (i === index ? next : c)) });
  return (
    <fieldset className="rounded-md border border-control bg-surface p-2">
      <legend className="px-1 text-[12px] font-medium text-fg-2">Group {label}</legend>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-[13px]">
        <span>Contacts match</span>
        <MatchSelect
          label={`Match of group ${label}`}
          value={group.match}
          onChange={(match) => onChange({ ...group, match })}
        />
        <span>of this group’s conditions</span>
        <Button variant="ghost" className="ml-auto" onClick={onRemove}>
          Remove group {label}
        </Button>
      </div>
      <ol className="space-y-2">
        {group.conditions.map((leaf, index) => {
          const inner = `${label}.${index + 1}`;
          return (
            <li key={leaf.id}>
              <ConditionRow
                label={inner}
                draft={leaf}
                onChange={(next) => setLeaf(index, next)}
                onRemove={() =>
                  group.conditions.length === 1
                    ? onRemove()
                    : onChange({ ...group, conditions: group.conditions.filter((_, i) => i !== index) })
                }
                errors={errors.filter((e) => e.condition === inner)}
                {...lookups}
              />
            </li>
          );
        })}
      </ol>
      {own.length > 0 ? (
        <ul className="mt-1 text-[13px] text-[var(--tone-danger)]">
          {own.map((e, i) => (
            <li key={i}>{e.field ? `${e.field}: ${e.message}` : e.message}</li>
          ))}
        </ul>
      ) : null}
      <Button
        className="mt-2"
        disabled={full}
        onClick={() => onChange({ ...group, conditions: [...group.conditions, newLeaf('email', lookups.variables)] })}
      >
        Add condition to group {label}
      </Button>
    </fieldset>
  );
}

export function SegmentBuilder({
  draft,
  onChange,
  errors,
  ...lookups
}: {
  draft: DefinitionDraft;
  onChange: (next: DefinitionDraft) => void;
  errors: readonly PlacedError[];
} & Lookups) {
  const count = countConditions(draft);
  const full = count >= CONDITIONS_MAX;
  const set = (index: number, next: ConditionDraft) =>
    onChange({ ...draft, conditions: draft.conditions.map((c, i) => (i === index ? next : c)) });
  const remove = (index: number) => onChange({ ...draft, conditions: draft.conditions.filter((_, i) => i !== index) });
  const general = errors.filter((e) => e.condition === null);
  return (
    <section aria-label="Conditions" className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-[13px]">
        <span>Contacts match</span>
        <MatchSelect label="Match" value={draft.match} onChange={(match) => onChange({ ...draft, match })} />
        <span>of these conditions</span>
      </div>
      {draft.conditions.length === 0 ? (
        <p className="rounded-md border border-dashed border-line p-4 text-center text-[13px] text-fg-2">
          No conditions yet: add one. A segment needs at least one.
        </p>
      ) : (
        <ol className="space-y-2">
          {draft.conditions.map((c, index) => {
            const label = String(index + 1);
            return (
              <li key={c.id}>
                {c.type === 'group' ? (
                  <Group
                    label={label}
                    group={c}
                    onChange={(next) => set(index, next)}
                    onRemove={() => remove(index)}
                    full={full}
                    errors={errors.filter((e) => e.condition === label || e.condition?.startsWith(`${label}.`))}
                    lookups={lookups}
                  />
                ) : (
                  <ConditionRow
                    label={label}
                    draft={c}
                    onChange={(next) => set(index, next)}
                    onRemove={() => remove(index)}
                    errors={errors.filter((e) => e.condition === label)}
                    {...lookups}
                  />
                )}
              </li>
            );
          })}
        </ol>
      )}
      {general.length > 0 ? (
        <ul role="alert" className="text-[13px] text-[var(--tone-danger)]">
          {general.map((e, i) => (
            <li key={i}>{e.field && e.field !== 'definition' ? `${e.field}: ${e.message}` : e.message}</li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          disabled={full}
          onClick={() => onChange({ ...draft, conditions: [...draft.conditions, newLeaf('email', lookups.variables)] })}
        >
          Add condition
        </Button>
        <Button
          disabled={full}
          onClick={() => onChange({ ...draft, conditions: [...draft.conditions, newGroup(lookups.variables)] })}
        >
          Add group
        </Button>
        <span className="text-[12px] text-fg-2 tabular">
          {count} of {CONDITIONS_MAX} conditions
        </span>
      </div>
    </section>
  );
}
