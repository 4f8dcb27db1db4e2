// The draft's steps (Stripe's progress stepping): a list of links to each step, each marked done or
// to do in words as well as by its icon, and each step a section under its numbered heading.
import { Circle, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';

export interface StepState {
  id: string;
  title: string;
  done: boolean;
}

export function StepList({ steps }: { steps: StepState[] }) {
  return (
    <ol aria-label="Steps" className="flex flex-wrap gap-x-4 gap-y-1 text-[13px]">
      {steps.map((s, i) => (
        <li key={s.id}>
          <a href={`#${s.id}`} className="inline-flex items-center gap-1 hover:underline">
            {s.done ? (
              <CircleCheck aria-hidden="true" size={14} className="text-[var(--tone-success)]" />
            ) : (
              <Circle aria-hidden="true" size={14} className="text-fg-2" />
            )}
            {i + 1}. {s.title}
            <span className="sr-only">{s.done ? ' (done)' : ' (to do)'}</span>
          </a>
        </li>
      ))}
    </ol>
  );
}

export function Step({
  id,
  n,
  title,
  done,
  children,
}: {
  id: string;
  n: number;
  title: string;
  done: boolean;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-4 border-t border-line pt-5">
      <h2 id={`${id}-title`} className="mb-3 flex items-center gap-2 text-[16px] leading-6 font-semibold">
        <span className="text-fg-2 tabular">{n}.</span> {title}
        {done ? <CircleCheck aria-label="done" size={16} className="text-[var(--tone-success)]" /> : null}
      </h2>
      {children}
    </section>
  );
}
