// A template's `{{variables}}`: found in its subject, preview text and body, each given a sample
// value that fills the preview and the test send. The same name rule as src/templates/variables.ts.
import { useId } from 'react';
import { inputClass } from '../ui/dialog.tsx';

const VARIABLE = /\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g;

export type Samples = Record<string, string>;

/** Every variable named in the texts, in order of first appearance. */
export function detectVariables(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const match of (text ?? '').matchAll(VARIABLE)) names.add(match[1]!);
  return [...names];
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The samples put in place for the preview only (the API fills the real values when it sends).
 * A variable without a sample stays visible as `{{name}}`, so the preview shows what is missing.
 */
export function fillSamples(text: string, samples: Samples, html: boolean): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    const value = samples[name];
    if (value === undefined || value === '') return whole;
    return html ? escapeHtml(value) : value.replace(/[\r\n]+/g, ' ');
  });
}

/** The samples worth sending: only filled ones, only for variables the template uses. */
export function usedSamples(names: string[], samples: Samples): Samples {
  return Object.fromEntries(names.filter((n) => samples[n]).map((n) => [n, samples[n]!]));
}

export function VariablesPanel({
  names,
  samples,
  onChange,
}: {
  names: string[];
  samples: Samples;
  onChange: (next: Samples) => void;
}) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-line p-3">
      <h2 id={`${id}-title`} className="text-[13px] font-semibold">
        Variables
      </h2>
      {names.length === 0 ? (
        <p className="mt-1 text-[13px] text-fg-2">
          None yet. Write <code className="font-mono text-[12px]">{'{{firstName}}'}</code> in the subject or body and
          give it a value when you send.
        </p>
      ) : (
        <>
          <p className="mt-1 text-[12px] text-fg-2">Sample values fill the preview and the test send.</p>
          <ul className="mt-2 space-y-2">
            {names.map((name) => (
              <li key={name} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] items-center gap-2">
                <label htmlFor={`${id}-${name}`} className="truncate font-mono text-[12px]" title={name}>
                  {name}
                </label>
                <input
                  id={`${id}-${name}`}
                  className={inputClass}
                  placeholder="Sample value"
                  value={samples[name] ?? ''}
                  onChange={(e) => onChange({ ...samples, [name]: e.target.value })}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
