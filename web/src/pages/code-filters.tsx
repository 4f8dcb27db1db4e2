// The code log's filters: status, channel and risk level, each a select and, when set, a removable
// chip, with Clear (Stripe's filter-chip pattern). Every change goes to the URL and drops the cursor.
import { X } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import {
  CODE_CHANNELS,
  CODE_STATUSES,
  RISK_LEVELS,
  channelWords,
  riskWords,
  statusWords,
  type CodeFilters,
} from './code-query.ts';

const control = 'h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10';

interface Choice {
  /** The URL parameter. */
  name: keyof CodeFilters;
  label: string;
  any: string;
  words: Record<string, string>;
  values: readonly string[];
}

const CHOICES: Choice[] = [
  { name: 'status', label: 'Status', any: 'Any status', words: statusWords, values: CODE_STATUSES },
  { name: 'channel', label: 'Channel', any: 'Any channel', words: channelWords, values: CODE_CHANNELS },
  { name: 'risk', label: 'Risk', any: 'Any risk', words: riskWords, values: RISK_LEVELS },
];

export function CodeFiltersBar({
  filters,
  onChange,
}: {
  filters: CodeFilters;
  /** A URL parameter to its new value; null removes it. */
  onChange: (changes: Partial<Record<keyof CodeFilters, string | null>>) => void;
}) {
  const chips = CHOICES.flatMap((choice) => {
    const value = filters[choice.name];
    return value ? [{ name: choice.name, label: `${choice.label}: ${choice.words[value]}` }] : [];
  });
  return (
    <div className="mb-3 space-y-2" role="search" aria-label="Filter codes">
      <div className="flex flex-wrap items-center gap-2">
        {CHOICES.map((choice) => (
          <select
            key={choice.name}
            aria-label={choice.label}
            className={control}
            value={filters[choice.name] ?? ''}
            onChange={(e) => onChange({ [choice.name]: e.target.value || null })}
          >
            <option value="">{choice.any}</option>
            {choice.values.map((value) => (
              <option key={value} value={value}>
                {choice.words[value]}
              </option>
            ))}
          </select>
        ))}
      </div>
      {chips.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2">
          {chips.map((chip) => (
            <span
              key={chip.name}
              className="inline-flex h-7 max-w-full items-center gap-1 rounded-full border border-line pr-1 pl-3 text-[12px]"
            >
              <span className="truncate">{chip.label}</span>
              <button
                type="button"
                aria-label={`Remove filter ${chip.label}`}
                className="flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-muted"
                onClick={() => onChange({ [chip.name]: null })}
              >
                <X aria-hidden="true" size={12} />
              </button>
            </span>
          ))}
          <Button variant="ghost" onClick={() => onChange({ status: null, channel: null, risk: null })}>
            Clear
          </Button>
        </div>
      ) : null}
    </div>
  );
}
