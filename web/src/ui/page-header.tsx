import type { ReactNode } from 'react';

/** h1 (the page's name on lists, the object's on details), badges, one muted line of facts, actions. */
export function PageHeader({
  title,
  badges,
  facts,
  actions,
}: {
  title: ReactNode;
  badges?: ReactNode;
  facts?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="mb-6 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-[20px] leading-7 font-semibold break-words">{title}</h1>
          {badges}
        </div>
        {facts ? <div className="mt-1 flex flex-wrap items-center gap-x-3 text-[13px] text-fg-2">{facts}</div> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </header>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="mt-8" aria-labelledby={sectionId(title)}>
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id={sectionId(title)} className="text-[16px] leading-6 font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

const sectionId = (title: string) => `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
